// No zod here: the browser bundles read these, and must not pull the schema library in with them.

/**
 * Why a signed-in session ended (docs/PRODUCT.md §10.3): given as `reason` in the 401
 * `AUTH.UNAUTHENTICATED` answer to a request whose signed session cookie names a session that no longer holds,
 * so the page can say why instead of a bare "session ended". Never given without such a cookie, nor for an
 * unknown or forged one.
 *
 * - `signed-out`: that session was ended by a logout (another tab of the browser, or a copy of its cookie);
 * - `password-changed`: the account's password was changed on another device;
 * - `signed-out-everywhere`: "Sign out everywhere" ended every session of the account;
 * - `account-deleted`: the account was deleted, with every session;
 * - `idle-timeout`: the session was unused longer than the idle timeout;
 * - `absolute-timeout`: the session reached its absolute lifetime.
 */
export const SESSION_END_REASONS = ['signed-out', 'password-changed', 'signed-out-everywhere', 'account-deleted', 'idle-timeout', 'absolute-timeout'] as const;

export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** Whether `value` is a reason this version knows (an answer of the server, a message of another tab). */
export function isSessionEndReason(value: unknown): value is SessionEndReason {
  return (SESSION_END_REASONS as readonly unknown[]).includes(value);
}

/**
 * The browser's sessionStorage key under which a page carries why its session ended to the sign-in screen
 * (the shell's query client writes it, mfe-auth's sign-in page reads it once): a {@link SessionEndReason},
 * or `ended` when the server gave none.
 */
export const SESSION_END_STORAGE_KEY = 'tm.sessionEnd';
