import { ModalDialog } from '@tm/web-platform';
import { useId } from 'react';

/** docs/PRODUCT.md §10.11.6: the keys of the task screen and what they do (each key its own keycap). */
const SHORTCUTS: readonly { keys: readonly string[]; does: string }[] = [
  { keys: ['N'], does: 'Write a new task' },
  { keys: ['/'], does: 'Search your tasks' },
  { keys: ['F'], does: 'Show the next filter' },
  { keys: ['U'], does: 'Undo the last delete, tick, clear or mark-all while its message shows' },
  { keys: ['?'], does: 'Show these shortcuts' },
  { keys: ['↑', '↓'], does: 'On a task: go to the previous or next task' },
  { keys: ['Home', 'End'], does: 'On a task: go to the first or last task' },
  { keys: ['Enter'], does: 'On a task: open its details (note and subtasks)' },
];

interface ShortcutsDialogProps {
  onClose: () => void;
}

/**
 * The list of keyboard shortcuts in a modal <dialog>, open while mounted: the browser keeps the focus inside
 * and makes the page behind it inert. Escape or "Close" closes it, and the focus goes back to where it was.
 */
export function ShortcutsDialog({ onClose }: ShortcutsDialogProps) {
  const titleId = useId();
  return (
    <ModalDialog className="tasks-dialog" labelledBy={titleId} onClose={onClose} closeButtonClassName="tasks-button tasks-dialog__close">
      <h2 id={titleId} className="tasks-dialog__title">
        Keyboard shortcuts
      </h2>
      <dl className="tasks-dialog__list">
        {SHORTCUTS.map((shortcut) => (
          <div key={shortcut.does} className="tasks-dialog__row">
            <dt>
              {shortcut.keys.map((key, index) => (
                <span key={key}>
                  {index > 0 && <span className="tasks-dialog__or"> or </span>}
                  <kbd className="tasks-kbd">{key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{shortcut.does}</dd>
          </div>
        ))}
      </dl>
      <p className="tasks-dialog__note">They work anywhere on this page, except while you type in a field.</p>
    </ModalDialog>
  );
}
