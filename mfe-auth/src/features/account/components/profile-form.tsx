import type { PublicUser } from '@tm/api-client';
import { LIMITS } from '@tm/contracts';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { FormAlert } from '../../../common/forms/form-alert';
import { useFormErrors } from '../../../common/forms/form-errors';
import { ForgotPasswordLink } from '../../../common/forms/forgot-password-link';
import { CurrentPasswordField } from '../../../common/forms/password-fields';
import { TextField } from '../../../common/forms/text-field';
import { profileErrors, useUpdateProfile, type ProfileField } from '../api/account';
import { useOneAtATime } from './use-one-at-a-time';
import { useSubmitFocus } from './use-submit-focus';

/** An email as the server compares it: trimmed, lower-cased. */
const normalised = (email: string) => email.trim().toLowerCase();

/**
 * "Name and email" (docs/PRODUCT.md §10.10): both fields filled in with today's values. A new email asks for
 * the current password (the field appears once the email differs, with a way out for a forgotten one). One
 * request per submission, the fields disabled meanwhile; on success the page and the header show the new
 * values at once and the password field is emptied; what the server refuses is said at its field. The
 * values follow a change made in another tab unless the person is editing that field.
 */
export function ProfileForm({ user }: { user: PublicUser }) {
  const { mutateAsync, isPending } = useUpdateProfile();
  const once = useOneAtATime();
  const { errors, form, refuse, reset, clear } = useFormErrors<ProfileField>();
  const { submitButton, start, settle } = useSubmitFocus(form);
  const [fullName, setFullName] = useState(user.fullName);
  const [email, setEmail] = useState(user.email);
  const [currentPassword, setCurrentPassword] = useState('');
  const shown = useRef(user);

  useEffect(() => {
    const before = shown.current;
    shown.current = user;
    setFullName((typed) => (typed === before.fullName ? user.fullName : typed));
    setEmail((typed) => (normalised(typed) === before.email ? user.email : typed));
  }, [user]);

  const newEmail = normalised(email) !== user.email;

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    once(() => {
      reset();
      start();
      return mutateAsync(newEmail ? { fullName, email, currentPassword } : { fullName }, {
        onSuccess: () => setCurrentPassword(''),
        onError: (error) => refuse(profileErrors(error)),
        onSettled: settle,
      });
    });
  }

  const edit = (field: ProfileField, set: (value: string) => void) => {
    const clearField = clear(field);
    return (event: { target: { value: string } }) => {
      clearField();
      set(event.target.value);
    };
  };

  return (
    <form ref={form} className="auth-form" onSubmit={onSubmit} aria-busy={isPending || undefined}>
      <FormAlert message={errors.form} />
      <TextField
        label="Full Name"
        name="fullName"
        type="text"
        autoComplete="name"
        required
        maxLength={LIMITS.fullName.max}
        value={fullName}
        disabled={isPending}
        error={errors.fullName}
        onChange={edit('fullName', setFullName)}
      />
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={LIMITS.email.max}
        value={email}
        disabled={isPending}
        error={errors.email}
        onChange={edit('email', setEmail)}
      />
      {newEmail && (
        <>
          <CurrentPasswordField
            label="Current password"
            name="currentPassword"
            hint="Needed to change your email."
            value={currentPassword}
            disabled={isPending}
            error={errors.currentPassword}
            onChange={edit('currentPassword', setCurrentPassword)}
          />
          <ForgotPasswordLink email={user.email}>Forgot your password?</ForgotPasswordLink>
        </>
      )}
      <button ref={submitButton} className="auth-form__submit" type="submit" aria-disabled={isPending || undefined}>
        {isPending ? 'Saving…' : 'Save changes'}
      </button>
    </form>
  );
}
