import { useEffect, useRef, type ReactNode } from 'react';

interface ModalDialogProps {
  /** Shown while true (default: as soon as it mounts). */
  open?: boolean;
  onClose: () => void;
  className: string;
  /** The id of the dialog's title. */
  labelledBy: string;
  /** The dialog's content; a "Close" button follows it. */
  children: ReactNode;
  /** The class of that "Close" button (each app styles its own buttons). */
  closeButtonClassName: string;
  /** Its words: "Close" unless the dialog asks for a choice, where it is "Cancel" (it changes nothing). */
  closeLabel?: string;
}

/**
 * A modal <dialog> the way every screen opens one (docs/PRODUCT.md §10.9): the browser keeps the focus inside
 * and makes the page behind it inert; Escape or its "Close" (or "Cancel") button closes it, and the focus goes back
 * to where it was when it opened.
 */
export function ModalDialog({ open = true, onClose, className, labelledBy, children, closeButtonClassName, closeLabel = 'Close' }: ModalDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element || !open || element.open) return;
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
  }, [open]);

  const close = () => {
    if (dialog.current?.open) dialog.current.close(); // fires "close", handled below
  };

  return (
    <dialog
      ref={dialog}
      className={className}
      aria-labelledby={labelledBy}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault(); // one way to close: ours
        close();
      }}
      onClose={() => {
        const target = returnFocus.current;
        returnFocus.current = null;
        onClose();
        if (target?.isConnected) target.focus();
      }}
    >
      {children}
      <button type="button" className={closeButtonClassName} onClick={close}>
        {closeLabel}
      </button>
    </dialog>
  );
}
