import { useRef, useState, type SubmitEvent } from 'react';
import { FormAlert } from '../../../common/forms/form-alert';
import { CurrentPasswordField } from '../../../common/forms/password-fields';
import { useFormErrors } from '../../../common/forms/form-errors';
import { deleteAccountErrors, useDeleteAccount, type DeleteAccountField } from '../api/account';
import { ConfirmDialog } from './confirm-dialog';
import { useOneAtATime } from './use-one-at-a-time';
import { fieldText } from '../../../common/forms/field-text';

export const DELETE_QUESTION = 'Delete your account and all its tasks?';
export const DELETE_CONSEQUENCE = 'This cannot be undone.';

/**
 * The danger zone's form (PRODUCT §10.10): the password, then "Delete account", which first asks in a dialog. Only a "Delete
 * account" there sends the request. On success the session ends like a logout (the platform's flow: user
 * signed out here and in the other tabs, the server's message toasted); a wrong password is shown on the
 * field and nothing else happens; another failure is shown above the field.
 */
export function DeleteAccountForm() {
  const { mutateAsync, isPending } = useDeleteAccount();
  const once = useOneAtATime();
  const { errors, form, refuse, reset, clear } = useFormErrors<DeleteAccountField>();
  const [confirming, setConfirming] = useState(false);
  const password = useRef('');

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending || confirming) return;
    password.current = fieldText(new FormData(event.currentTarget), 'password');
    setConfirming(true);
  }

  function onConfirm() {
    once(() => {
      reset();
      return mutateAsync(
        { password: password.current },
        {
          onError: (error) => {
            setConfirming(false);
            refuse(deleteAccountErrors(error));
          },
        },
      );
    });
  }

  return (
    <>
      <form ref={form} className="auth-form" onSubmit={onSubmit}>
        <FormAlert message={errors.form} />
        <CurrentPasswordField
          label="Password"
          name="password"
          hint="Enter your password to confirm it is you."
          error={errors.password}
          onChange={clear('password')}
        />
        <button className="account-button account-button--danger" type="submit">
          Delete account
        </button>
      </form>
      {confirming && (
        <ConfirmDialog
          title={DELETE_QUESTION}
          description={DELETE_CONSEQUENCE}
          confirmLabel="Delete account"
          pendingLabel="Deleting…"
          pending={isPending}
          onConfirm={onConfirm}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}
