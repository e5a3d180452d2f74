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
  /** Deletes the user (its email becomes free again); false when there was none with this id. */
  delete(id: string): Promise<boolean>;
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
