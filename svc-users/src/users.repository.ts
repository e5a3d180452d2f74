import type { PublicUser } from '@tm/contracts';

/** What signup stores. The email is already normalised (trimmed, lower-cased) by the request schema. */
export interface NewUser {
  fullName: string;
  email: string;
  passwordHash: string;
}

/** A stored user including the password hash; never leaves the service. */
export interface UserRecord extends PublicUser {
  passwordHash: string;
}

/** A new name and/or email for {@link UsersRepository.updateProfile}; the email already normalised. */
export interface ProfileChanges {
  fullName?: string;
  email?: string;
}

/**
 * A password reset link as stored: only the SHA-256 digest of its token, never the token (SECURITY.md
 * "Password reset"). Whether it still works (unused, unexpired) is the service's rule to apply.
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

/** Options every users store adapter accepts. */
export interface UsersStoreOptions {
  /** Source of `createdAt`; tests may inject a fake clock. */
  now?: () => Date;
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
  /** Replaces the user's password hash; false when there is no user with this id. */
  updatePasswordHash(id: string, passwordHash: string): Promise<boolean>;
  /**
   * Replaces the user's password hash with `next` only while it is still `current` (compare and set), so an
   * upgrade of the hash at sign-in never overwrites a password changed meanwhile; false when nothing changed.
   */
  replacePasswordHash(id: string, current: string, next: string): Promise<boolean>;
  /**
   * Sets the user's name and/or email; the user as it now is, or null when there is no user with this id.
   * Throws {@link DuplicateEmailError} when another user has the email, even by a racing call.
   */
  updateProfile(id: string, changes: ProfileChanges): Promise<PublicUser | null>;
  /** Deletes the user (its email becomes free again) and its password reset links; false when there was none with this id. */
  delete(id: string): Promise<boolean>;
  /** Stores a password reset link (by its token's digest). */
  createPasswordReset(reset: Omit<PasswordResetRecord, 'usedAt'>): Promise<void>;
  /** The reset link with this token digest, used or not, expired or not; null when there is none. */
  findPasswordReset(tokenHash: string): Promise<PasswordResetRecord | null>;
  /**
   * Marks the link used at `usedAt` only while it is unused (compare and set): of two requests with one link,
   * exactly one gets true.
   */
  consumePasswordReset(tokenHash: string, usedAt: Date): Promise<boolean>;
  /** Removes every reset link of the user (after a reset or a password change, they must not work); how many. */
  deletePasswordResets(userId: string): Promise<number>;
  /** Removes the links that expired before `now`, used or not; how many. */
  deleteExpiredPasswordResets(now: Date): Promise<number>;
  /** Resolves true when the store answers; rejects or resolves false otherwise. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The store's unique constraint on email refused a new user. */
export class DuplicateEmailError extends Error {
  constructor() {
    super('A user with this email already exists');
    this.name = 'DuplicateEmailError';
  }
}
