import { useEffect, useId, useRef } from 'react';

export const LOGOUT_QUESTION = 'Sign out?';
export const LOGOUT_CONSEQUENCE = 'Your unsaved task text will be lost.';

/** What a sign-out would lose of the changes still waiting to sync (PRODUCT §10.4): they leave the device with it. */
export function pendingConsequence(pending: number): string {
  return `${pending} ${pending === 1 ? 'change has' : 'changes have'} not synced yet and will be lost.`;
}

/**
 * Asks before a logout that would lose text being written (PRODUCT §2 Header, §10.3) or changes not synced yet
 * (§10.4): a modal <dialog> (the
 * browser keeps the focus inside and the page behind inert), named by its question and described by what
 * would be lost; the focus starts on Cancel, the safe answer; Escape cancels and the focus goes back to the
 * logout button.
 */
export default function LogoutConfirm({ onCancel, onConfirm, draft = true, pending = 0 }: { onCancel: () => void; onConfirm: () => void; draft?: boolean; pending?: number }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    cancel.current?.focus();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="logout-dialog"
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId} className="logout-dialog__title">
        {LOGOUT_QUESTION}
      </h2>
      <p id={textId} className="logout-dialog__text">
        {[pending > 0 ? pendingConsequence(pending) : null, draft ? LOGOUT_CONSEQUENCE : null].filter(Boolean).join(' ')}
      </p>
      <div className="logout-dialog__actions">
        <button ref={cancel} type="button" className="button button--quiet" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button" onClick={onConfirm}>
          Sign out
        </button>
      </div>
    </dialog>
  );
}
