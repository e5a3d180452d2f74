import { signup, statusOf } from '@tm/api-client';
import type { SignupRequest } from '@tm/contracts';
import { formErrors, type FormErrors } from '../../../common/forms/form-errors';
import { useSessionMutation } from './session-mutation';

/** Shown when a failed signup carries no server message. */
export const SIGNUP_FALLBACK = 'Signup failed. Please try again.';

export type SignupField = keyof SignupRequest;

/** What went wrong with a signup, placed where the person will look: by field, or for the whole form. */
export type SignupErrors = FormErrors<SignupField>;

const FIELDS: readonly SignupField[] = ['fullName', 'email', 'password'];

/**
 * Sorts the server's answer to a failed signup (docs/PRODUCT.md §10.7): each validation issue goes to its
 * field, a taken email to the email field, anything else (offline, timeout, server down) to the form.
 */
export function signupErrors(error: unknown): SignupErrors {
  return formErrors(error, FIELDS, SIGNUP_FALLBACK, [
    { field: 'email', owns: (failure) => statusOf(failure) === 409, fallback: 'An account with this email already exists' },
  ]);
}

/** POST /user/signup (PRODUCT §7). The server signs the new user in, so on success the user lands on `/`. */
export function useSignup() {
  return useSessionMutation({ mutationFn: signup, redirectTo: '/' });
}
