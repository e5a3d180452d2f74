import { createHash, randomBytes } from 'node:crypto';
import { ObjectIdString, type PublicUser } from '@tm/contracts';
import { assessPassword } from '@tm/password-policy';
import type { CalendarFeedRecord, NewPasswordReset, PasswordResetRecord, ProfileChanges, UserRecord } from './users.repository.js';

/**
 * The account rules of svc-users (docs/PRODUCT.md §10.10; SECURITY.md "Passwords", "Password reset") as plain
 * functions over plain data: no HTTP, no store, no clock of their own. users.service.ts applies them and turns
 * their refusals into answers; the stores only read and write what they are handed.
 *
 * Rules kept elsewhere on purpose: the email is normalised (trimmed, lower-cased) by the request schemas of
 * @tm/contracts before anything here sees it, and one account per email is the store's unique index (only
 * the store can decide a race). Deleting an account removes its reset links with it (the repository
 * contract); its tasks and sessions are the gateway's to end.
 */

// Accounts

/** The account id a vouched user id names, lower-cased; null when it cannot name one (no such account). */
export function accountId(userId: string): string | null {
  const id = ObjectIdString.safeParse(userId);
  return id.success ? id.data : null;
}

/**
 * Whether `record`, read by email, is still the account `user`, read by id: a deletion and a new sign-up with
 * the same email between the two reads make it another account.
 */
export function sameAccount(user: PublicUser, record: UserRecord): boolean {
  return record._id === user._id;
}

/** A record without its password hash: what may leave the service. */
export function publicUser({ passwordHash: _hash, ...user }: UserRecord): PublicUser {
  return user;
}

// Time zones (docs/PRODUCT.md §10.10, §10.14)

/** The 400's words on `timeZone` for a name {@link knownTimeZone} refuses. */
export const UNKNOWN_TIME_ZONE_MESSAGE = 'Time zone must be a known IANA time zone name, such as Europe/Paris';

/** What an IANA name looks like: segments of letters, digits, `_`, `+` and `-`, each starting with a capital. */
const IANA_NAME = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z][A-Za-z0-9_+-]*)*$/;

/**
 * Whether `name` is a time zone an account may keep, exactly as given: one of the runtime's canonical zones
 * (`Intl.supportedValuesOf('timeZone')`), or a name `Intl.DateTimeFormat` accepts (`UTC`, an alias such as
 * `Asia/Calcutta` or `US/Eastern`) written as IANA writes it. A name Intl accepts in another case
 * (`europe/paris`, `Europe/PARIS`) is refused, so every client reading it back finds it in its own list; so is
 * an offset (`+01:00`), which does not follow a zone's clock changes.
 */
export function knownTimeZone(name: string): boolean {
  if (supportedTimeZones().has(name)) return true;
  if (!IANA_NAME.test(name)) return false;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat(undefined, { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  return resolved === name || resolved.toLowerCase() !== name.toLowerCase();
}

let supported: ReadonlySet<string> | undefined;

/** The runtime's canonical zones, read once. */
function supportedTimeZones(): ReadonlySet<string> {
  supported ??= new Set(Intl.supportedValuesOf('timeZone'));
  return supported;
}

// Passwords (SECURITY.md "Passwords")

/** Why a new password is refused: too common or guessable, or no change at all. */
export type NewPasswordRefusal = 'weak' | 'same-as-current';

/**
 * Whether a new password (sign-up, change, reset) may be set: the sign-up rules' common-password check with the
 * account's name and email as context (NIST SP 800-63B), and, for a change, not the current password typed
 * again. Passwords are compared as NFKC, as the hasher does, so the same password typed another way is the same
 * one. Sign-in applies none of this: a rule added later must not lock anyone out.
 */
export function newPasswordRefusal(
  password: string,
  { fullName, email }: { fullName: string; email: string },
  currentPassword?: string,
): NewPasswordRefusal | null {
  if (!assessPassword(password, [fullName, email]).acceptable) return 'weak';
  if (currentPassword !== undefined && password.normalize('NFKC') === currentPassword.normalize('NFKC')) return 'same-as-current';
  return null;
}

/** Why a password is written: what it ends with it. */
export type PasswordWriteReason = 'change' | 'reset' | 'rehash';

/** A new password hash to write with a compare and set on the hash that was proven or read. */
export interface PasswordWrite {
  userId: string;
  /** The stored hash the write is based on: nothing is written unless it is still the stored one. */
  current: string;
  next: string;
  /** Every reset link of the account ends with the write, in the same transaction. */
  endResetLinks: boolean;
}

/**
 * The write of a new hash for `record` (PRODUCT §10.10): always a compare and set on the hash that was proven
 * or read, so two writes at once never both succeed with only one in force. A change or a reset of the
 * password ends every reset link of the account with it (a link sent before must not undo it); replacing the
 * hash of the same password by today's scheme at sign-in ('rehash') changes no password and ends nothing.
 */
export function passwordWrite(reason: PasswordWriteReason, record: UserRecord, next: string): PasswordWrite {
  return { userId: record._id, current: record.passwordHash, next, endResetLinks: reason !== 'rehash' };
}

/**
 * Why a compare and set of the hash wrote nothing: the account is gone, or another write (a change, a reset, a
 * sign-in's rehash) came first and the one that read the hash first lost (PRODUCT §10.10).
 */
export function lostPasswordWrite(accountStillThere: boolean): 'account-gone' | 'changed-elsewhere' {
  return accountStillThere ? 'changed-elsewhere' : 'account-gone';
}

// Profile (PRODUCT §10.10 "Name and email")

/** What a profile request asks for, its fields already held to the sign-up rules by the request schema. */
export interface ProfileRequest {
  fullName?: string | undefined;
  email?: string | undefined;
  currentPassword?: string | undefined;
  timeZone?: string | undefined;
}

export type ProfilePlan =
  /** Every given value equals the current one: nothing to write, nothing needed. */
  | { kind: 'unchanged' }
  /** A time zone {@link knownTimeZone} refuses, or a new email without the current password. */
  | { kind: 'refused'; reason: 'unknown-time-zone' | 'email-needs-password' }
  /**
   * Write `changes`; `prove` is the password to check first (a new email), null when none is needed (a name).
   * `tellOldAddress`: the old address gets a notice afterwards, so a change the owner did not make is noticed.
   */
  | { kind: 'change'; changes: ProfileChanges; prove: string | null; tellOldAddress: boolean };

/**
 * What a profile change does: a value equal to the current one changes nothing and needs nothing; a new name
 * or time zone needs nothing more; a new email needs the current password, and the old address is told once it
 * changed. A time zone is refused when it is not known, even when it is the only field (bad input changes
 * nothing). The new email being free is the store's to decide (its unique index), even against a racing sign-up.
 */
export function planProfileChange(user: PublicUser, { fullName, email, currentPassword, timeZone }: ProfileRequest): ProfilePlan {
  if (timeZone !== undefined && !knownTimeZone(timeZone)) return { kind: 'refused', reason: 'unknown-time-zone' };
  const changes: ProfileChanges = {};
  if (fullName !== undefined && fullName !== user.fullName) changes.fullName = fullName;
  if (timeZone !== undefined && timeZone !== user.timeZone) changes.timeZone = timeZone;
  const newEmail = email !== undefined && email !== user.email;
  if (newEmail) {
    if (currentPassword === undefined) return { kind: 'refused', reason: 'email-needs-password' };
    changes.email = email;
  }
  if (Object.keys(changes).length === 0) return { kind: 'unchanged' };
  return { kind: 'change', changes, prove: newEmail ? (currentPassword ?? null) : null, tellOldAddress: newEmail };
}

// Password reset links (SECURITY.md "Password reset")

/** How long a link works after it was sent. */
export const RESET_LINK_TTL_MS = 30 * 60 * 1000;

/** The query parameter of the reset page that carries the token. */
export const RESET_TOKEN_PARAM = 'token';

/** 256 random bits, URL-safe (43 characters): the token of one reset link or calendar feed. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the store keeps of a token (a reset link's, a calendar feed's): its SHA-256, in hex. The token is random
 * and long, so a fast digest is enough (no password hashing): someone who reads the store cannot turn a digest
 * back into a working link or feed address.
 */
export function secretTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * A new link for the account `userId`, asked for at `now`: the token goes into the mail only, the store gets
 * its digest, and it works for {@link RESET_LINK_TTL_MS}.
 */
export function newPasswordReset(userId: string, now: Date): { token: string; reset: NewPasswordReset } {
  const token = newSecretToken();
  return { token, reset: { tokenHash: secretTokenHash(token), userId, createdAt: now, expiresAt: new Date(now.getTime() + RESET_LINK_TTL_MS) } };
}

/** The link a mail carries: the reset page (`https://app.example/reset-password`) with the token. */
export function resetLink(resetPage: string, token: string): string {
  const url = new URL(resetPage);
  url.searchParams.set(RESET_TOKEN_PARAM, token);
  return url.toString();
}

/** Whether a stored link still works at `now`: known, never used and not expired (it works once, for 30 minutes). */
export function resetLinkWorks<T extends Pick<PasswordResetRecord, 'usedAt' | 'expiresAt'>>(reset: T | null, now: Date): reset is T {
  return reset !== null && reset.usedAt === null && reset.expiresAt.getTime() > now.getTime();
}

// Calendar feed (docs/PRODUCT.md §10.18, SECURITY.md "Calendar feed")

/**
 * A new feed for an account, made at `now`: the token goes into the address the person is shown once, the store
 * gets its digest ({@link secretTokenHash}). It replaces any feed the account had, so an earlier address stops
 * working; it has no expiry (a calendar app keeps one address), and ends when turned off or with the account.
 */
export function newCalendarFeed(now: Date): { token: string; feed: CalendarFeedRecord } {
  const token = newSecretToken();
  return { token, feed: { tokenHash: secretTokenHash(token), createdAt: now } };
}
