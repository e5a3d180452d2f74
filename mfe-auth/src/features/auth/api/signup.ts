import { browserTimeZone, signup, statusOf, validationIssues } from '@tm/api-client';
import type { SignupRequest, UserResponse } from '@tm/contracts';
import { formErrors, type FormErrors } from '../../../common/forms/form-errors';
import { useSessionMutation } from './session-mutation';

/** Shown when a failed signup carries no server message. */
export const SIGNUP_FALLBACK = 'Signup failed. Please try again.';

/** The fields the person fills in; the time zone is the browser's, never typed. */
export type SignupField = Exclude<keyof SignupRequest, 'timeZone'>;

/** What the form collects. */
export type SignupDetails = Omit<SignupRequest, 'timeZone'>;

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

/** Whether a refused signup concerns the time zone alone. */
function refusesOnlyTimeZone(error: unknown): boolean {
  const issues = validationIssues(error);
  return issues.length > 0 && issues.every((issue) => issue.path[0] === 'timeZone');
}

/**
 * POST /user/signup with this browser's time zone (docs/PRODUCT.md §10.10, §10.14), kept with the account. When
 * the server does not know that zone (its time zone data older than the browser's), the account is made
 * without one, which follows this browser all the same: a zone the person never typed must not keep them
 * from signing up.
 */
export async function signupFromThisBrowser(details: SignupDetails): Promise<UserResponse> {
  try {
    return await signup({ ...details, timeZone: browserTimeZone() });
  } catch (error) {
    if (!refusesOnlyTimeZone(error)) throw error;
    return signup(details);
  }
}

/** POST /user/signup (PRODUCT §7). The server signs the new user in, so on success the user lands on `/`. */
export function useSignup() {
  return useSessionMutation({ mutationFn: signupFromThisBrowser, redirectTo: '/' });
}
