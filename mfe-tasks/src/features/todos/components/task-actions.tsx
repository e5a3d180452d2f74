import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useRef } from 'react';
import { MoreIcon, PinIcon, TrashIcon } from './icons';

export interface TaskActionsProps {
  title: string;
  isPinned: boolean;
  /** Small screens get an overflow menu instead of two buttons (SPEC §2). */
  compact: boolean;
  onTogglePinned: () => void;
  onDelete: () => void;
  /** Called once the delete control has let go of focus: the row is leaving, the list takes focus. */
  onFocusLost: () => void;
}

/** The pin and delete actions of one task row. */
export function TaskActions(props: TaskActionsProps) {
  return props.compact ? <TaskActionsMenu {...props} /> : <TaskActionButtons {...props} />;
}

function TaskActionButtons({ isPinned, onTogglePinned, onDelete, onFocusLost }: TaskActionsProps) {
  return (
    <div className="tasks-item__actions">
      <button
        type="button"
        className="tasks-icon-button"
        aria-label={isPinned ? 'Unpin task' : 'Pin task'}
        aria-pressed={isPinned}
        onClick={onTogglePinned}
      >
        <PinIcon filled={isPinned} />
      </button>
      <button
        type="button"
        className="tasks-icon-button tasks-icon-button--danger"
        aria-label="Delete task"
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
  return (
    <div className="tasks-item__actions">
      {/* Not modal: a modal menu aria-hides the rest of the page while its controls stay focusable
          (axe: aria-hidden-focus). The menu still closes on Escape, Tab and outside clicks. */}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger asChild>
          <button type="button" className="tasks-icon-button" aria-label={`More actions for "${title}"`}>
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
