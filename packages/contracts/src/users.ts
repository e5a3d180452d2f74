import { z } from 'zod';
import { MessageResponse, ObjectIdString } from './common.js';
import { LIMITS } from './limits.js';

/** Email is trimmed and lower-cased before it is checked, stored or compared. */
export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(LIMITS.email.max, `Email must be at most ${LIMITS.email.max} characters`)
  .pipe(z.email('Enter a valid email address'));

const FullName = z
  .string()
  .trim()
  .min(LIMITS.fullName.min, 'Full name is required')
  .max(LIMITS.fullName.max, `Full name must be at most ${LIMITS.fullName.max} characters`);

export const Password = z
  .string()
  .min(LIMITS.password.min, `Password must be at least ${LIMITS.password.min} characters`)
  .max(LIMITS.password.max, `Password must be at most ${LIMITS.password.max} characters`);

/** POST /user/signup */
export const SignupRequest = z.object({ fullName: FullName, email: Email, password: Password });
export type SignupRequest = z.infer<typeof SignupRequest>;

/**
 * POST /user/login. The password is not held to the signup rules (a rule changed later must not lock
 * anyone out); only an absurd length is refused as a validation error, which says nothing about accounts.
 */
export const LoginRequest = z.object({
  email: Email,
  password: z.string().min(1, 'Password is required').max(LIMITS.password.max, 'Invalid email or password'),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const PublicUser = z.object({
  _id: ObjectIdString,
  fullName: z.string(),
  email: z.string(),
});
export type PublicUser = z.infer<typeof PublicUser>;

/** GET /user/me, POST /user/signup (201), POST /user/login (200) */
export const UserResponse = MessageResponse.extend({ user: PublicUser });
export type UserResponse = z.infer<typeof UserResponse>;

/** POST /user/logout */
export const LogoutResponse = MessageResponse;
export type LogoutResponse = z.infer<typeof LogoutResponse>;

/** A password the user types to prove it is them (not held to the signup rules, like login). */
const CurrentPassword = z
  .string()
  .min(1, 'Enter your current password')
  .max(LIMITS.password.max, `Password must be at most ${LIMITS.password.max} characters`);

/**
 * PUT /user/password. The new password is held to the signup rules (and the common-password check). On
 * success every other session of the account ends and this one is rotated (docs/PRODUCT.md §10.10).
 */
export const ChangePasswordRequest = z.object({ currentPassword: CurrentPassword, newPassword: Password });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** DELETE /user/account: the account and all its tasks are deleted, and every session of it ends. */
export const DeleteAccountRequest = z.object({ password: CurrentPassword });
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequest>;

/** POST /internal/users/verify-password (gateway → svc-users only; never forwarded from /api). */
export const VerifyPasswordRequest = z.object({ password: CurrentPassword });
export type VerifyPasswordRequest = z.infer<typeof VerifyPasswordRequest>;
