import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { EditIcon, MoreIcon, PinIcon, TrashIcon } from '@tm/web-platform';
import { useRef } from 'react';

export interface TaskActionsProps {
  title: string;
  isPinned: boolean;
  /** Small screens get an overflow menu instead of two buttons (docs/PRODUCT.md §2). */
  compact: boolean;
  /** Turns the title into a text field (docs/PRODUCT.md §10.11.1). */
  onEdit: () => void;
  onTogglePinned: () => void;
  onDelete: () => void;
  /** Called once the delete control has let go of focus: the row is leaving, the list moves the focus on. */
  onFocusLost: () => void;
}

/** “Buy oat milk”: how a control names the task it acts on (PRODUCT §10.9). */
export function quoted(title: string): string {
  return `“${title}”`;
}

/**
 * The edit, pin and delete actions of one task row, named with the task's title and with a tooltip each. The
 * control that started an edit (`data-edit-return`) gets the focus back when the edit ends with Enter or Escape.
 */
export function TaskActions(props: TaskActionsProps) {
  return props.compact ? <TaskActionsMenu {...props} /> : <TaskActionButtons {...props} />;
}

function TaskActionButtons({ title, isPinned, onEdit, onTogglePinned, onDelete, onFocusLost }: TaskActionsProps) {
  const editLabel = `Edit ${quoted(title)}`;
  const pinLabel = `${isPinned ? 'Unpin' : 'Pin'} ${quoted(title)}`;
  const deleteLabel = `Delete ${quoted(title)}`;
  return (
    <div className="tasks-item__actions">
      <button type="button" className="tasks-icon-button" aria-label={editLabel} title={editLabel} data-edit-return onClick={onEdit}>
        <EditIcon />
      </button>
      <button type="button" className="tasks-icon-button" aria-label={pinLabel} title={pinLabel} aria-pressed={isPinned} onClick={onTogglePinned}>
        <PinIcon filled={isPinned} />
      </button>
      <button
        type="button"
        className="tasks-icon-button tasks-icon-button--danger"
        aria-label={deleteLabel}
        title={deleteLabel}
        onClick={() => {
          onDelete();
          onFocusLost();
        }}
      >
        <TrashIcon />
      </button>
    </div>
  );
}

/** Radix gives the menu its roles (menu, menuitem), focus handling and arrow-key navigation. */
function TaskActionsMenu({ title, isPinned, onEdit, onTogglePinned, onDelete, onFocusLost }: TaskActionsProps) {
  // After Delete the trigger leaves with its row: instead of returning focus to it, hand focus on. After
  // Edit the focus is in the title's field: the menu must not take it back to its button.
  const handingOff = useRef<'delete' | 'edit' | null>(null);
  const menuLabel = `More actions for ${quoted(title)}`;
  return (
    <div className="tasks-item__actions">
      {/* Not modal: a modal menu aria-hides the rest of the page while its controls stay focusable
          (axe: aria-hidden-focus). The menu still closes on Escape, Tab and outside clicks. */}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger asChild>
          <button type="button" className="tasks-icon-button" aria-label={menuLabel} title={menuLabel} data-edit-return>
            <MoreIcon />
          </button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            className="tasks-menu"
            align="end"
            sideOffset={4}
            onCloseAutoFocus={(event) => {
              const handOff = handingOff.current;
              if (!handOff) return;
              // Once per action: should a delete fail, the row comes back and its menu behaves as usual.
              handingOff.current = null;
              event.preventDefault();
              if (handOff === 'delete') onFocusLost();
            }}
          >
            <DropdownMenu.Item
              className="tasks-menu__item"
              onSelect={() => {
                handingOff.current = 'edit';
                onEdit();
              }}
            >
              <EditIcon />
              Edit
            </DropdownMenu.Item>
            <DropdownMenu.Item className="tasks-menu__item" onSelect={onTogglePinned}>
              <PinIcon filled={isPinned} />
              {isPinned ? 'Unpin' : 'Pin'}
            </DropdownMenu.Item>
            <DropdownMenu.Item
              className="tasks-menu__item tasks-menu__item--danger"
              onSelect={() => {
                handingOff.current = 'delete';
                onDelete();
              }}
            >
              <TrashIcon />
              Delete
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}
