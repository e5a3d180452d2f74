import { describeError, signup, statusOf, validationIssues } from '@tm/api-client';
import type { SignupRequest } from '@tm/contracts';
import { useSessionMutation } from './session-mutation';

/** Shown when a failed signup carries no server message. */
export const SIGNUP_FALLBACK = 'Signup failed. Please try again.';

export type SignupField = keyof SignupRequest;

/** What went wrong with a signup, placed where the person will look: by field, or for the whole form. */
export type SignupErrors = Partial<Record<SignupField | 'form', string>>;

const FIELDS: readonly SignupField[] = ['fullName', 'email', 'password'];

function isField(value: unknown): value is SignupField {
  return FIELDS.includes(value as SignupField);
}

/**
 * Sorts the server's answer to a failed signup (docs/PRODUCT.md §10.7): each validation issue goes to its
 * field, a taken email to the email field, anything else (offline, timeout, server down) to the form.
 */
export function signupErrors(error: unknown): SignupErrors {
  const errors: SignupErrors = {};
  for (const { path, message } of validationIssues(error)) {
    const field = path[0];
    if (isField(field)) errors[field] ??= message;
  }
  if (statusOf(error) === 409) errors.email = describeError(error, 'An account with this email already exists');
  if (Object.keys(errors).length === 0) errors.form = describeError(error, SIGNUP_FALLBACK);
  return errors;
}

/** POST /user/signup (PRODUCT §7). The server signs the new user in, so on success the user lands on `/`. */
export function useSignup() {
  return useSessionMutation({ mutationFn: signup, redirectTo: '/' });
}
