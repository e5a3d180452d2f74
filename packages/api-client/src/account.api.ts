import { ROUTES, type ApiResponse, type ChangePasswordRequest, type DeleteAccountRequest } from '@tm/contracts';
import { call } from './http.js';

/**
 * PUT /user/password. A wrong current password is a 403 (`AUTH.WRONG_PASSWORD`, the session is fine); a new
 * password the policy refuses is a 400 with its issue on `newPassword`. On success every other session of
 * the account ends and this one is rotated: the server sets a new XSRF cookie, which axios reads per request.
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
