import { currentUserQuery, describeError, fieldIssues, forgotPassword, isPasswordChangedElsewhere, isResetLinkInvalid, resetPassword } from '@tm/api-client';
import type { ResetPasswordRequest } from '@tm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formErrors, type FormErrors } from '../../../common/forms/form-errors';

/** Shown when a failed call carries no server message (network error, timeout, a 5xx page). */
export const FORGOT_PASSWORD_FALLBACK = 'The link could not be sent. Please try again.';
export const RESET_PASSWORD_FALLBACK = 'Your password could not be changed. Please try again.';

export type ResetPasswordField = 'newPassword' | 'link';

/**
 * POST /user/forgot-password (docs/PRODUCT.md §10.10). The answer is the same whether or not the address has
 * an account; the form shows it in place of itself. A failure is shown by the form.
 */
export function useForgotPassword() {
  return useMutation({ mutationKey: ['user', 'forgot-password'], mutationFn: forgotPassword });
}

/**
 * POST /user/reset-password (PRODUCT §10.10). On success every session of the account ended, this browser's
 * too if it was signed in to it: the current user is checked again, so the page follows.
 */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['user', 'reset-password'],
    mutationFn: (body: ResetPasswordRequest) => resetPassword(body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey });
    },
  });
}

/**
 * A refused reset, where the person will look: a password the rules refuse on "New password"; a link that
 * does not work (unknown, used, expired), or a password changed meanwhile elsewhere (409), about the link,
 * with a way to ask for a new one; anything else (offline, timeout, too many attempts) above the field.
 */
export function resetPasswordErrors(error: unknown): FormErrors<ResetPasswordField> {
  const aboutLink = isResetLinkInvalid(error) || isPasswordChangedElsewhere(error) || fieldIssues(error).some(({ path }) => path[0] === 'token');
  if (aboutLink) return { link: describeError(error, RESET_PASSWORD_FALLBACK) };
  return formErrors(error, ['newPassword'], RESET_PASSWORD_FALLBACK);
}
