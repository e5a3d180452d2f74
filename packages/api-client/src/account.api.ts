import type { API, ApiResponse, ChangePasswordRequest, DeleteAccountRequest } from '@tm/contracts';
import { http } from './http.js';

// Type-only use of the contracts' API table (its schemas carry zod, which stays out of browser bundles):
// each path below must be the one the table names, or this file does not compile.
type PathOf<N extends 'changePassword' | 'logoutAll' | 'deleteAccount'> = (typeof API)[N]['path'];
const CHANGE_PASSWORD: PathOf<'changePassword'> = '/user/password';
const LOGOUT_ALL: PathOf<'logoutAll'> = '/user/logout-all';
const DELETE_ACCOUNT: PathOf<'deleteAccount'> = '/user/account';

/**
 * PUT /user/password. A wrong current password is a 403 (`AUTH.WRONG_PASSWORD`, the session is fine); a new
 * password the policy refuses is a 400 with its issue on `newPassword`. On success every other session of
 * the account ends and this one is rotated: the server sets a new XSRF cookie, which axios reads per request.
 */
export async function changePassword(body: ChangePasswordRequest): Promise<ApiResponse<'changePassword'>> {
  return (await http.put<ApiResponse<'changePassword'>>(CHANGE_PASSWORD, body)).data;
}

/** POST /user/logout-all: every session of the account ends, this one included. */
export async function logoutAll(): Promise<ApiResponse<'logoutAll'>> {
  return (await http.post<ApiResponse<'logoutAll'>>(LOGOUT_ALL)).data;
}

/** DELETE /user/account: the account and all its tasks are deleted for good, and every session of it ends. */
export async function deleteAccount(body: DeleteAccountRequest): Promise<ApiResponse<'deleteAccount'>> {
  return (await http.delete<ApiResponse<'deleteAccount'>>(DELETE_ACCOUNT, { data: body })).data;
}
