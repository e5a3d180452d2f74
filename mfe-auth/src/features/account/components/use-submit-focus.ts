import { useRef, type RefObject } from 'react';

/**
 * Keeps the keyboard focus in a form whose fields are disabled while it submits: a field disabled under the
 * focus drops it to the page, so once the submission settles the focus comes back to the submit button
 * (which stays focusable: aria-disabled, not disabled). A refused field then takes it (useFormErrors).
 */
export function useSubmitFocus(form: RefObject<HTMLFormElement | null>) {
  const submitButton = useRef<HTMLButtonElement>(null);
  const hadFocus = useRef(false);
  return {
    submitButton,
    /** Call when the submission starts. */
    start: () => {
      hadFocus.current = Boolean(form.current?.contains(document.activeElement));
    },
    /** Call when it settled. */
    settle: () => {
      const focus = document.activeElement;
      if (hadFocus.current && (!focus || focus === document.body || (focus as HTMLInputElement).disabled)) submitButton.current?.focus();
    },
  };
}
