import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { MoreIcon, PinIcon, TrashIcon } from '@tm/web-platform';
import { useRef } from 'react';

export interface TaskActionsProps {
  title: string;
  isPinned: boolean;
  /** Small screens get an overflow menu instead of two buttons (docs/PRODUCT.md §2). */
  compact: boolean;
  onTogglePinned: () => void;
  onDelete: () => void;
  /** Called once the delete control has let go of focus: the row is leaving, the list moves the focus on. */
  onFocusLost: () => void;
}

/** “Buy oat milk”: how a control names the task it acts on (PRODUCT §10.9). */
export function quoted(title: string): string {
  return `“${title}”`;
}

/** The pin and delete actions of one task row, named with the task's title and with a tooltip each. */
export function TaskActions(props: TaskActionsProps) {
  return props.compact ? <TaskActionsMenu {...props} /> : <TaskActionButtons {...props} />;
}

function TaskActionButtons({ title, isPinned, onTogglePinned, onDelete, onFocusLost }: TaskActionsProps) {
  const pinLabel = `${isPinned ? 'Unpin' : 'Pin'} ${quoted(title)}`;
  const deleteLabel = `Delete ${quoted(title)}`;
  return (
    <div className="tasks-item__actions">
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
function TaskActionsMenu({ title, isPinned, onTogglePinned, onDelete, onFocusLost }: TaskActionsProps) {
  // After Delete the trigger leaves with its row: instead of returning focus to it, hand focus on.
  const deleting = useRef(false);
  const menuLabel = `More actions for ${quoted(title)}`;
  return (
    <div className="tasks-item__actions">
      {/* Not modal: a modal menu aria-hides the rest of the page while its controls stay focusable
          (axe: aria-hidden-focus). The menu still closes on Escape, Tab and outside clicks. */}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger asChild>
          <button type="button" className="tasks-icon-button" aria-label={menuLabel} title={menuLabel}>
            <MoreIcon />
          </button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            className="tasks-menu"
            align="end"
            sideOffset={4}
            onCloseAutoFocus={(event) => {
              if (!deleting.current) return;
              // Once per delete: should the delete fail, the row comes back and its menu behaves as usual.
              deleting.current = false;
              event.preventDefault();
              onFocusLost();
            }}
          >
            <DropdownMenu.Item className="tasks-menu__item" onSelect={onTogglePinned}>
              <PinIcon filled={isPinned} />
              {isPinned ? 'Unpin' : 'Pin'}
            </DropdownMenu.Item>
            <DropdownMenu.Item
              className="tasks-menu__item tasks-menu__item--danger"
              onSelect={() => {
                deleting.current = true;
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
