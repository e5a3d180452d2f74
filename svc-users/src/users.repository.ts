import type { PublicUser } from '@tm/contracts';

/**
 * The port of svc-users' storage: what the service needs from a store, in the domain's terms, and nothing of
 * any adapter. The rules that decide what to write are account.domain.ts's; a store reads and writes what it
 * is handed, in one transaction where the contract says so.
 */

/**
 * What signup stores. The email is already normalised (trimmed, lower-cased) by the request schema; the time
 * zone, when given, is one account.domain.ts knows (absent: the account has none, docs/PRODUCT.md §10.14).
 */
export interface NewUser {
  fullName: string;
  email: string;
  passwordHash: string;
  timeZone?: string;
}

/** A stored user including the password hash; never leaves the service. */
export interface UserRecord extends PublicUser {
  passwordHash: string;
}

/** A new name, email and/or time zone for {@link UsersRepository.updateProfile}; the email already normalised. */
export interface ProfileChanges {
  fullName?: string;
  email?: string;
  timeZone?: string;
}

/**
 * A password reset link as stored: only the SHA-256 digest of its token, never the token (SECURITY.md
 * "Password reset"). Whether it still works (unused, unexpired) is account.domain.ts's rule.
 */
export interface PasswordResetRecord {
  /** Hex SHA-256 of the token in the link. */
  tokenHash: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  /** When the link was used; null while it was not. */
  usedAt: Date | null;
}

/** A reset link to store: not used yet. */
export type NewPasswordReset = Omit<PasswordResetRecord, 'usedAt'>;

/**
 * An account's calendar feed as stored (docs/PRODUCT.md §10.18, SECURITY.md "Calendar feed"): only the SHA-256
 * digest of the token its address carries, never the token, and when it was made. At most one per account.
 */
export interface CalendarFeedRecord {
  /** Hex SHA-256 of the token in the feed's address. */
  tokenHash: string;
  createdAt: Date;
}

/** What goes with a new password hash in the same transaction (see {@link UsersRepository.replacePasswordHash}). */
export interface PasswordHashEffects {
  /** Remove every reset link of the user too (after a password change or reset, they must not work). */
  endResetLinks?: boolean;
}

/**
 * Storage of accounts, one adapter per store (SQLite, MongoDB), all held to the same contract suite.
 * Emails are compared exactly: normalising them is the caller's job.
 */
export interface UsersRepository {
  /** Stores a new user; throws {@link DuplicateEmailError} when the email is taken, even by a racing call. */
  create(user: NewUser): Promise<PublicUser>;
  findByEmail(email: string): Promise<UserRecord | null>;
  /** `id` is a lower-case 24-hex id. */
  findById(id: string): Promise<PublicUser | null>;
  /** Replaces the user's password hash unconditionally; false when there is no user with this id. */
  updatePasswordHash(id: string, passwordHash: string): Promise<boolean>;
  /**
   * Replaces the user's password hash with `next` only while it is still `current` (compare and set), so a
   * write based on a hash that was read or proven never overwrites a password changed meanwhile; false when
   * nothing changed. With `endResetLinks`, every reset link of the user is removed in the same transaction:
   * the new hash and the end of the links are written together or not at all.
   */
  replacePasswordHash(id: string, current: string, next: string, effects?: PasswordHashEffects): Promise<boolean>;
  /**
   * Sets the user's name, email and/or time zone; the user as it now is, or null when there is no user with this id.
   * Throws {@link DuplicateEmailError} when another user has the email, even by a racing call.
   */
  updateProfile(id: string, changes: ProfileChanges): Promise<PublicUser | null>;
  /** Deletes the user (its email becomes free again) and its password reset links; false when there was none with this id. */
  delete(id: string): Promise<boolean>;
  /** Stores a password reset link (by its token's digest). */
  createPasswordReset(reset: NewPasswordReset): Promise<void>;
  /** The reset link with this token digest, used or not, expired or not; null when there is none. */
  findPasswordReset(tokenHash: string): Promise<PasswordResetRecord | null>;
  /**
   * Marks the link used at `usedAt` only while it is unused (compare and set): of two requests with one link,
   * exactly one gets true.
   */
  consumePasswordReset(tokenHash: string, usedAt: Date): Promise<boolean>;
  /** Removes every reset link of the user; how many. */
  deletePasswordResets(userId: string): Promise<number>;
  /** Removes the links that expired before `now`, used or not; how many. */
  deleteExpiredPasswordResets(now: Date): Promise<number>;
  /**
   * Gives the user this calendar feed, replacing the one it had (whose address then opens nothing); false when
   * there is no user with this id. The store's unique index on the digest refuses a digest another user has.
   */
  setCalendarFeed(id: string, feed: CalendarFeedRecord): Promise<boolean>;
  /** Removes the user's calendar feed; false when there is no user with this id (a user without one: true). */
  clearCalendarFeed(id: string): Promise<boolean>;
  /** The user's calendar feed, or null when it has none or there is no user with this id. */
  findCalendarFeed(id: string): Promise<CalendarFeedRecord | null>;
  /** The user whose calendar feed has this token digest, or null. Deleting a user deletes its feed. */
  findByCalendarFeed(tokenHash: string): Promise<PublicUser | null>;
  /** Resolves true when the store answers; rejects or resolves false otherwise. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The store's unique constraint on email refused a new user or a new email. */
export class DuplicateEmailError extends Error {
  constructor() {
    super('A user with this email already exists');
    this.name = 'DuplicateEmailError';
  }
}
