import {
  ErrorCode,
  ROUTES,
  type ApiResponse,
  type ChangePasswordRequest,
  type DeleteAccountRequest,
  type ForgotPasswordRequest,
  type ResetPasswordRequest,
  type UpdateProfileRequest,
} from '@tm/contracts';
import axios from 'axios';
import { statusOf } from './errors.js';
import { call } from './http.js';

/**
 * PUT /user/password. A wrong current password is a 403 (`AUTH.WRONG_PASSWORD`, the session is fine); a new
 * password the policy refuses is a 400 with its issue on `newPassword`; a change that lost the race with
 * another change or a reset is a 409 (`USER.PASSWORD_CHANGED_CONCURRENTLY`). On success every other session
 * of the account ends and this one is rotated: the server sets a new XSRF cookie, which axios reads per request.
 */
export async function changePassword(body: ChangePasswordRequest): Promise<ApiResponse<'changePassword'>> {
  return call(ROUTES.changePassword, { body });
}

/** POST /user/logout-all: every session of the account ends, this one included. */
export async function logoutAll(): Promise<ApiResponse<'logoutAll'>> {
  return call(ROUTES.logoutAll);
}

/** DELETE /user/account: the account and all its tasks are deleted for good, and every session of it ends. */
export async function deleteAccount(body: DeleteAccountRequest): Promise<ApiResponse<'deleteAccount'>> {
  return call(ROUTES.deleteAccount, { body });
}

/**
 * PUT /user/profile: a new name, email and/or time zone; the answer is the user as it now is. A new email needs
 * `currentPassword` (400 without, 403 `AUTH.WRONG_PASSWORD` when wrong) and must be free (409
 * `USER.EMAIL_TAKEN`, its issue on `email`); an unknown time zone is a 400 with its issue on `timeZone`
 * (docs/PRODUCT.md §10.14).
 */
export async function updateProfile(body: UpdateProfileRequest): Promise<ApiResponse<'updateProfile'>> {
  return call(ROUTES.updateProfile, { body });
}

/** POST /user/forgot-password: the same answer whether or not the address has an account; 429 past the limits. */
export async function forgotPassword(body: ForgotPasswordRequest): Promise<ApiResponse<'forgotPassword'>> {
  return call(ROUTES.forgotPassword, { body });
}

/**
 * POST /user/reset-password: the link's token (sent in the body, never in a URL) and the new password. 400
 * `USER.RESET_LINK_INVALID` for a link that is unknown, used or expired; 400 on `newPassword` for a refused
 * password. On success every session of the account ends; nobody is signed in.
 */
export async function resetPassword(body: ResetPasswordRequest): Promise<ApiResponse<'resetPassword'>> {
  return call(ROUTES.resetPassword, { body });
}

function codeOf(error: unknown): unknown {
  if (!axios.isAxiosError(error)) return undefined;
  const body: unknown = error.response?.data;
  return typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
}

/** A 409: the password was changed elsewhere between this change's check and its write (nothing was written). */
export function isPasswordChangedElsewhere(error: unknown): boolean {
  return statusOf(error) === 409 && codeOf(error) === ErrorCode.passwordChangedConcurrently;
}

/** A 400 for a reset link that is unknown, already used or expired. */
export function isResetLinkInvalid(error: unknown): boolean {
  return statusOf(error) === 400 && codeOf(error) === ErrorCode.resetLinkInvalid;
}

/** A 409 for an email another account has. */
export function isEmailTaken(error: unknown): boolean {
  return statusOf(error) === 409 && codeOf(error) === ErrorCode.emailTaken;
}
