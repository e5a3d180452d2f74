import { useEffect, useLayoutEffect, useRef, useState, type PointerEvent, type MouseEvent } from 'react';
import { TextField, type TextFieldProps } from './text-field';

export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'adornment' | 'inputRef'>;

/** Where the caret was when the toggle was pressed with the field in focus: put back after the type changed. */
interface Caret {
  start: number | null;
  end: number | null;
  direction: 'forward' | 'backward' | 'none' | null;
}

/**
 * A password input with a show/hide button inside its box (docs/PRODUCT.md §10.10): every password field of
 * the auth screens and the account page. The button says what it does ("Show password" / "Hide password",
 * its visible text "Show" / "Hide"), and a polite status says what changed. Pressed with a mouse or a finger
 * while the person types, it leaves the focus and the caret in the field (the button never takes the focus
 * from the input: a keyboard keeps the phone's keyboard open); from the keyboard (Tab, then Space or Enter)
 * it works like any button. The field is hidden again when its form is sent, so a browser's password manager
 * sees a password field. At least 44 × 44 px, for touch.
 */
export function PasswordField(props: PasswordFieldProps) {
  const [shown, setShown] = useState(false);
  const [status, setStatus] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const typing = useRef(false);
  const caret = useRef<Caret | null>(null);

  // After the type changed: the caret goes back where it was, in a field that has the focus.
  useLayoutEffect(() => {
    const field = input.current;
    const saved = caret.current;
    caret.current = null;
    if (!field || !saved) return;
    if (document.activeElement !== field) field.focus();
    field.setSelectionRange(saved.start, saved.end, saved.direction ?? undefined);
  }, [shown]);

  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    const hide = () => {
      setShown(false);
      setStatus('');
    };
    form.addEventListener('submit', hide);
    return () => form.removeEventListener('submit', hide);
  }, []);

  /** A pointer press (mouse, finger, pen) while the field has the focus: it keeps it. */
  const keepFocus = (event: PointerEvent<HTMLButtonElement> | MouseEvent<HTMLButtonElement>) => {
    typing.current = document.activeElement === input.current;
    if (typing.current) event.preventDefault();
  };

  const toggle = () => {
    const field = input.current;
    if (field && typing.current) {
      caret.current = { start: field.selectionStart, end: field.selectionEnd, direction: field.selectionDirection };
    }
    typing.current = false;
    setShown(!shown);
    setStatus(shown ? 'Your password is hidden.' : 'Your password is shown.');
  };

  return (
    <TextField
      {...props}
      type={shown ? 'text' : 'password'}
      inputRef={input}
      // A shown password is still a password: no spelling checks or corrections sent anywhere, no capitals.
      spellCheck={false}
      autoCapitalize="off"
      autoCorrect="off"
      adornment={(inputId) => (
        <>
          <button
            type="button"
            className="auth-form__reveal"
            aria-controls={inputId}
            disabled={props.disabled}
            onPointerDown={keepFocus}
            onMouseDown={keepFocus}
            onClick={toggle}
          >
            {shown ? 'Hide' : 'Show'}
            {/* Named by its content, "Show password": a field found by its label ("Password") is the input only. */}
            <span className="visually-hidden"> password</span>
          </button>
          <span className="visually-hidden" aria-live="polite">
            {status}
          </span>
        </>
      )}
    />
  );
}
