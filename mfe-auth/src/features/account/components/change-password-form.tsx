import { useState, type SubmitEvent } from 'react';
import { FormAlert } from '../../../common/forms/form-alert';
import { ForgotPasswordLink } from '../../../common/forms/forgot-password-link';
import { CurrentPasswordField, NewPasswordField, refusedPassword } from '../../../common/forms/password-fields';
import { useFormErrors } from '../../../common/forms/form-errors';
import { changePasswordErrors, useChangePassword, type ChangePasswordField } from '../api/account';
import { useOneAtATime } from './use-one-at-a-time';
import { useSubmitFocus } from './use-submit-focus';
import { fieldText } from '../../../common/forms/field-text';

/**
 * "Change password": the current password (with a way out for a forgotten one: a reset link), a new one
 * (with the rules and the strength hint), each shown on demand, one request per submission, the fields
 * disabled while it runs. A wrong current password or a refused new one is shown next to its field (a new
 * one the strength hint already calls refused without a request); anything else above the fields, a change
 * made elsewhere a moment before included (409, docs/PRODUCT.md §10.10). On success the server's message is
 * toasted, the fields are emptied, and the person stays signed in (docs/PRODUCT.md §10.7).
 */
export function ChangePasswordForm({ email, userInputs }: { email: string; userInputs: readonly string[] }) {
  const { mutateAsync, isPending } = useChangePassword();
  const once = useOneAtATime();
  const { errors, form, refuse, reset, clear } = useFormErrors<ChangePasswordField>();
  const { submitButton, start, settle } = useSubmitFocus(form);
  const [newPassword, setNewPassword] = useState('');

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = event.currentTarget;
    const data = new FormData(target);
    const refused = refusedPassword(fieldText(data, 'newPassword'), userInputs);
    if (refused) {
      refuse({ newPassword: refused });
      return;
    }
    once(() => {
      reset();
      start();
      return mutateAsync(
        { currentPassword: fieldText(data, 'currentPassword'), newPassword: fieldText(data, 'newPassword') },
        {
          onSuccess: () => {
            target.reset();
            setNewPassword('');
          },
          onError: (error) => refuse(changePasswordErrors(error)),
          onSettled: settle,
        },
      );
    });
  }

  const clearNew = clear('newPassword');
  return (
    <form ref={form} className="auth-form" onSubmit={onSubmit} aria-busy={isPending || undefined}>
      <FormAlert message={errors.form} />
      <CurrentPasswordField
        label="Current password"
        name="currentPassword"
        disabled={isPending}
        error={errors.currentPassword}
        onChange={clear('currentPassword')}
      />
      <ForgotPasswordLink email={email}>Forgot your current password?</ForgotPasswordLink>
      <NewPasswordField
        label="New password"
        name="newPassword"
        password={newPassword}
        userInputs={userInputs}
        disabled={isPending}
        error={errors.newPassword}
        onChange={(event) => {
          clearNew();
          setNewPassword(event.target.value);
        }}
      />
      <button ref={submitButton} className="auth-form__submit" type="submit" aria-disabled={isPending || undefined}>
        {isPending ? 'Changing…' : 'Change password'}
      </button>
    </form>
  );
}
