import { useEffect, useId, useRef } from 'react';

/** Keeps Tab and Shift+Tab on the buttons of `dialog`, cycling from the last to the first and back. */
function trapTab(event: KeyboardEvent, dialog: HTMLElement | null): void {
  const buttons = Array.from(dialog?.querySelectorAll<HTMLButtonElement>('button') ?? []);
  const first = buttons[0];
  const last = buttons[buttons.length - 1];
  const inside = dialog?.contains(document.activeElement) ?? false;
  if (event.shiftKey && (!inside || document.activeElement === first)) {
    event.preventDefault();
    last?.focus();
  } else if (!event.shiftKey && (!inside || document.activeElement === last)) {
    event.preventDefault();
    first?.focus();
  }
}

interface ConfirmDialogProps {
  /** The question, which names the dialog. */
  title: string;
  /** What follows from saying yes. */
  description: string;
  confirmLabel: string;
  /** The confirm button's text while the action runs. */
  pendingLabel: string;
  pending: boolean;
  /** The confirm button in the danger colour (a deletion); off for an action that loses nothing (signing out). */
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal confirmation of a destructive action (WAI-ARIA alertdialog): named by its question and described by
 * its consequence; the focus starts on Cancel (the safe answer), stays inside while it is open (Tab and
 * Shift+Tab cycle its buttons), Escape cancels, and on closing the focus goes back where it was. While the
 * action runs, both answers wait.
 */
export function ConfirmDialog({ title, description, confirmLabel, pendingLabel, pending, danger = true, onConfirm, onCancel }: ConfirmDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancel.current?.focus();
    return () => opener?.focus();
  }, []);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        if (!pending) onCancel();
      } else if (event.key === 'Tab') {
        trapTab(event, dialog.current);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [pending, onCancel]);

  return (
    <div className="account-dialog__backdrop">
      <div
        ref={dialog}
        className="auth-card account-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        aria-busy={pending || undefined}
      >
        <h2 id={titleId} className="account__title">
          {title}
        </h2>
        <p id={descriptionId} className="account__text account-dialog__description">
          {description}
        </p>
        <div className="account-dialog__actions">
          <button ref={cancel} type="button" className="account-button" aria-disabled={pending || undefined} onClick={() => !pending && onCancel()}>
            Cancel
          </button>
          <button
            type="button"
            className={danger ? 'account-button account-button--danger' : 'account-button account-button--primary'}
            aria-disabled={pending || undefined}
            onClick={() => !pending && onConfirm()}
          >
            {pending ? pendingLabel : confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
