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

/**
 * The person's time zone (docs/PRODUCT.md §10.10, §10.14): an IANA name such as `Europe/Paris`, `UTC` or an alias
 * the runtime's Intl accepts (`Asia/Calcutta`), kept exactly as given. Due dates are days and times in it. The
 * schema holds its type and length only: whether the zone is known is svc-users' one rule (`knownTimeZone` in
 * svc-users/src/account.domain.ts), answered with a 400 on the field.
 */
export const TimeZone = z.string().max(LIMITS.timeZone.max, `Time zone must be at most ${LIMITS.timeZone.max} characters`);

/** POST /user/signup. `timeZone` is optional: an account without one follows the browser it is used in. */
export const SignupRequest = z.object({ fullName: FullName, email: Email, password: Password, timeZone: TimeZone.optional() });
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

/** An account as it leaves svc-users. `timeZone` is absent while the account has none (not set). */
export const PublicUser = z.object({
  _id: ObjectIdString,
  fullName: z.string(),
  email: z.string(),
  timeZone: TimeZone.optional(),
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

/**
 * PUT /user/profile (docs/PRODUCT.md §10.10): a new name, email and/or time zone, the name and email held to the
 * sign-up rules. A new email needs the current password (403 `AUTH.WRONG_PASSWORD` when it is wrong, 409
 * `USER.EMAIL_TAKEN` when another account has the email); a new name or time zone does not. An unknown time
 * zone is a 400 on `timeZone`. A value equal to the current one changes nothing. Answers the user as it now is.
 */
export const UpdateProfileRequest = z
  .object({ fullName: FullName.optional(), email: Email.optional(), currentPassword: CurrentPassword.optional(), timeZone: TimeZone.optional() })
  .refine((body) => body.fullName !== undefined || body.email !== undefined || body.timeZone !== undefined, {
    message: 'Give a new name, email or time zone',
    path: ['fullName'],
  });
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequest>;

/**
 * POST /user/forgot-password (docs/PRODUCT.md §10.10, SECURITY.md "Password reset"): asks for a link to reset
 * the password, sent to the email. The answer is the same whether or not the email has an account.
 */
export const ForgotPasswordRequest = z.object({ email: Email });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>;

/**
 * The token of a password reset link: opaque to everyone but svc-users (43 URL-safe characters today: 256
 * random bits). Any other string is only refused as a link that does not work.
 */
export const ResetToken = z.string().min(1, 'This link is not complete. Open the link from the email again.').max(256, 'This link is not valid');

/**
 * POST /user/reset-password: the token of the link and a new password, held to the sign-up rules. The link
 * works once, for 30 minutes; on success every session of the account ends. 400 `USER.RESET_LINK_INVALID`
 * when the link is unknown, used or expired.
 */
export const ResetPasswordRequest = z.object({ token: ResetToken, newPassword: Password });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

/**
 * POST /internal/password-resets (gateway → svc-users only): send a reset link for `email`, if it has an
 * account, to the page at `resetPage` (the app's public origin + `/reset-password`), which gets `?token=…`.
 * Answered at once: the lookup and the mail happen after the answer, so its time says nothing.
 */
export const SendPasswordResetRequest = z.object({ email: Email, resetPage: z.url({ protocol: /^https?$/ }) });
export type SendPasswordResetRequest = z.infer<typeof SendPasswordResetRequest>;

/**
 * POST /internal/password-resets/use: the public answer and whose password it was, for the gateway to end
 * every session of that user and lift the sign-in lock of that address.
 */
export const PasswordResetDone = MessageResponse.extend({ userId: ObjectIdString, email: z.string() });
export type PasswordResetDone = z.infer<typeof PasswordResetDone>;
