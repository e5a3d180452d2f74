import {
  changePassword,
  currentUserQuery,
  deleteAccount,
  describeError,
  isEmailTaken,
  isPasswordChangedElsewhere,
  isSessionEnded,
  isWrongPassword,
  logoutAll,
  updateProfile,
} from '@tm/api-client';
import type { ChangePasswordRequest, DeleteAccountRequest, UpdateProfileRequest } from '@tm/contracts';
import { forgetDeviceTasks, notifyError, notifySuccess, useSessionEndingMutation } from '@tm/web-platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formErrors, type FormErrors } from '../../../common/forms/form-errors';

export type ChangePasswordField = keyof ChangePasswordRequest;
export type DeleteAccountField = keyof DeleteAccountRequest;
export type ProfileField = Exclude<keyof UpdateProfileRequest, 'timeZone'>;
export type TimeZoneField = 'timeZone';

/** Shown when a failed call carries no server message (network error, timeout, a 5xx page). */
export const CHANGE_PASSWORD_FALLBACK = 'Your password could not be changed. Please try again.';
export const SIGN_OUT_EVERYWHERE_FALLBACK = 'Could not sign out of all devices. Please try again.';
export const DELETE_ACCOUNT_FALLBACK = 'Your account could not be deleted. Please try again.';
export const PROFILE_FALLBACK = 'Your details could not be saved. Please try again.';
export const TIME_ZONE_FALLBACK = 'Your time zone could not be saved. Please try again.';
const WRONG_PASSWORD_FALLBACK = 'The password is not correct.';

const CHANGE_PASSWORD_FIELDS: readonly ChangePasswordField[] = ['currentPassword', 'newPassword'];
const DELETE_ACCOUNT_FIELDS: readonly DeleteAccountField[] = ['password'];
const PROFILE_FIELDS: readonly ProfileField[] = ['fullName', 'email', 'currentPassword'];

/**
 * A refused password change, next to the field it concerns (docs/PRODUCT.md §10.7): a wrong current password
 * (403) on "Current password", a new password the policy refuses (400) on "New password"; anything else
 * (offline, timeout, server down, the password changed elsewhere a moment before: 409) above the fields.
 */
export function changePasswordErrors(error: unknown): FormErrors<ChangePasswordField> {
  return formErrors(error, CHANGE_PASSWORD_FIELDS, CHANGE_PASSWORD_FALLBACK, [
    { field: 'currentPassword', owns: isWrongPassword, fallback: WRONG_PASSWORD_FALLBACK },
  ]);
}

/**
 * A refused change of name or email, at its field: the rules of sign-up (400), a wrong current password
 * (403), an email another account has (409, on Email); anything else above the fields.
 */
export function profileErrors(error: unknown): FormErrors<ProfileField> {
  return formErrors(error, PROFILE_FIELDS, PROFILE_FALLBACK, [
    { field: 'currentPassword', owns: isWrongPassword, fallback: WRONG_PASSWORD_FALLBACK },
    { field: 'email', owns: isEmailTaken, fallback: 'An account with this email already exists' },
  ]);
}

/** A refused time zone (400, docs/PRODUCT.md §10.14) at its field; anything else above it. */
export function timeZoneErrors(error: unknown): FormErrors<TimeZoneField> {
  return formErrors(error, ['timeZone'], TIME_ZONE_FALLBACK);
}

/**
 * PUT /user/profile (PRODUCT §10.10). The answer is the user as it now is: it becomes the current user at
 * once (the page, the header's account menu; the other tabs are told, @tm/web-platform tab-sync), and the
 * server's message is toasted. A failure is shown by the form.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['user', 'profile'],
    mutationFn: updateProfile,
    onSuccess: ({ message, user }) => {
      queryClient.setQueryData(currentUserQuery().queryKey, user);
      notifySuccess(message);
    },
  });
}

/** A refused deletion: a wrong password on the Password field, anything else above it. */
export function deleteAccountErrors(error: unknown): FormErrors<DeleteAccountField> {
  return formErrors(error, DELETE_ACCOUNT_FIELDS, DELETE_ACCOUNT_FALLBACK, [{ field: 'password', owns: isWrongPassword, fallback: WRONG_PASSWORD_FALLBACK }]);
}

/**
 * PUT /user/password (PRODUCT §10.10). On success the server's message is toasted and the person stays signed in: the server
 * ended every other session and rotated this one (new session and XSRF cookies, which axios reads per
 * request), so the current user is checked again with the new cookie before the mutation settles.
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['user', 'password'],
    mutationFn: changePassword,
    onSuccess: async ({ message }) => {
      notifySuccess(message);
      // A new password starts the device afresh: the tasks kept on it go (SECURITY.md "What is kept on the device").
      await forgetDeviceTasks(queryClient);
      await queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey });
    },
    // Changed elsewhere a moment before: if that ended this session, the current-user check finds out and
    // the page follows to the sign-in screen, which says why; the form says what happened meanwhile.
    onError: async (error) => {
      if (isPasswordChangedElsewhere(error)) await queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey });
    },
  });
}

/**
 * POST /user/logout-all (PRODUCT §10.10): ends like a logout (the platform's session-ending flow; the other tabs
 * are told `signed-out-everywhere`); a failure is toasted, as a logout's is (PRODUCT §8), unless this session had
 * already ended (the sign-in screen then says why).
 */
export function useSignOutEverywhere() {
  return useSessionEndingMutation({
    mutationKey: ['user', 'logout-all'],
    mutationFn: logoutAll,
    reason: 'signed-out-everywhere',
    onError: (error) => {
      if (!isSessionEnded(error)) notifyError(describeError(error, SIGN_OUT_EVERYWHERE_FALLBACK));
    },
  });
}

/**
 * DELETE /user/account (PRODUCT §10.10): ends like a logout (the other tabs are told `account-deleted`, and offer
 * to sign up); a failure is shown by the form, on its Password field or above it.
 */
export function useDeleteAccount() {
  return useSessionEndingMutation<DeleteAccountRequest>({ mutationKey: ['user', 'account', 'delete'], mutationFn: deleteAccount, reason: 'account-deleted' });
}
