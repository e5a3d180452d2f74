import { ModalDialog } from '@tm/web-platform';
import { useId } from 'react';

/** docs/PRODUCT.md §10.11.6: the keys of the task screen and what they do. */
const SHORTCUTS: readonly { key: string; does: string }[] = [
  { key: 'n', does: 'Write a new task' },
  { key: '/', does: 'Show the next filter' },
  { key: '?', does: 'Show these shortcuts' },
  { key: '↑ / ↓', does: 'On a task: go to the previous or next task' },
  { key: 'Home / End', does: 'On a task: go to the first or last task' },
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
          <div key={shortcut.key} className="tasks-dialog__row">
            <dt>
              <kbd className="tasks-kbd">{shortcut.key}</kbd>
            </dt>
            <dd>{shortcut.does}</dd>
          </div>
        ))}
      </dl>
      <p className="tasks-dialog__note">They work anywhere on this page, except while you type in a field.</p>
    </ModalDialog>
  );
}
