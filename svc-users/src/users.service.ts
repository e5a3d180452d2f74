import { randomBytes } from 'node:crypto';
import {
  ErrorCode,
  ObjectIdString,
  type ChangePasswordRequest,
  type LoginRequest,
  type PublicUser,
  type SignupRequest,
} from '@tm/contracts';
import { assessPassword, WEAK_PASSWORD_MESSAGE } from '@tm/password-policy';
import { ConflictError, HttpError, UnauthorizedError, ValidationError } from '@tm/service-kit/errors';
import type { PasswordHasher } from './password.hasher.js';
import { DuplicateEmailError, type UserRecord, type UsersRepository } from './users.repository.js';

const PASSWORD_MESSAGES = {
  wrongCurrent: 'The current password is incorrect',
  wrong: 'The password is incorrect',
  sameAsCurrent: 'Choose a password different from your current one',
} as const;

/** What the service logs through (pino's logger fits); services do not import the kit (no Koa here). */
export interface ServiceLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface UsersServiceDeps {
  repository: UsersRepository;
  hasher: PasswordHasher;
  logger: ServiceLogger;
}

/** Account use cases: signup, credential check, profile, password change, deletion. Knows neither HTTP nor the store behind it. */
export class UsersService {
  private readonly repository: UsersRepository;
  private readonly hasher: PasswordHasher;
  private readonly logger: ServiceLogger;
  /**
   * Checked against when the email is unknown, so that path does the same hashing work as a wrong password
   * and response time does not tell which emails have accounts. Made once, at start-up.
   */
  private readonly dummyHash: Promise<string>;

  constructor({ repository, hasher, logger }: UsersServiceDeps) {
    this.repository = repository;
    this.hasher = hasher;
    this.logger = logger;
    this.dummyHash = hasher.hash(randomBytes(16).toString('base64'));
    // Awaited on first use; this only keeps an early failure from being reported as unhandled.
    this.dummyHash.catch(() => undefined);
  }

  /** Creates an account; 409 when the email is taken, including by a signup racing this one. */
  async signup({ fullName, email, password }: SignupRequest): Promise<PublicUser> {
    refuseWeakPassword('password', password, { fullName, email });
    // Cheap early answer for the common case; the store's unique constraint is what actually decides.
    if (await this.repository.findByEmail(email)) throw emailTaken();
    const passwordHash = await this.hasher.hash(password);
    try {
      return await this.repository.create({ fullName, email, passwordHash });
    } catch (error) {
      if (error instanceof DuplicateEmailError) throw emailTaken();
      throw error;
    }
  }

  /** The user these credentials belong to; one and the same 401 for an unknown email and a wrong password. */
  async login({ email, password }: LoginRequest): Promise<PublicUser> {
    const record = await this.repository.findByEmail(email);
    const matches = await this.passwordMatches(record, password);
    if (!record || !matches) {
      throw new UnauthorizedError('Invalid email or password', ErrorCode.invalidCredentials);
    }
    await this.upgradeHash(record, password);
    return publicUser(record);
  }

  /** The signed-in user; 401 when the vouched id is malformed or its account no longer exists. */
  async me(userId: string): Promise<PublicUser> {
    const user = await this.findUser(userId);
    if (!user) throw notSignedIn();
    return user;
  }

  /**
   * Proves the signed-in user knows the account's password (before a sensitive change): 403 when it is wrong,
   * 401 when the account no longer exists.
   */
  async verifyPassword(userId: string, password: string): Promise<void> {
    await this.provenRecord(userId, password, () => wrongPassword('password', PASSWORD_MESSAGES.wrong));
  }

  /**
   * Replaces the password once the current one is proven: 403 when it is wrong, 400 when the new one is too
   * weak or the same as the current one, 401 when the account no longer exists.
   */
  async changePassword(userId: string, { currentPassword, newPassword }: ChangePasswordRequest): Promise<void> {
    const record = await this.provenRecord(userId, currentPassword, () =>
      wrongPassword('currentPassword', PASSWORD_MESSAGES.wrongCurrent),
    );
    refuseWeakPassword('newPassword', newPassword, record);
    // The hasher compares NFKC forms, so the same password typed another way is still the same one.
    if (newPassword.normalize('NFKC') === currentPassword.normalize('NFKC')) {
      throw new ValidationError([{ path: ['newPassword'], message: PASSWORD_MESSAGES.sameAsCurrent }]);
    }
    const passwordHash = await this.hasher.hash(newPassword);
    if (!(await this.repository.updatePasswordHash(record._id, passwordHash))) throw notSignedIn();
  }

  /** Deletes the signed-in user's account. Idempotent: an account already gone (or never there) is fine. */
  async deleteAccount(userId: string): Promise<void> {
    const id = ObjectIdString.safeParse(userId);
    if (id.success) await this.repository.delete(id.data);
  }

  /** The user the vouched id names, or null when it is malformed or has no account. */
  private async findUser(userId: string): Promise<PublicUser | null> {
    const id = ObjectIdString.safeParse(userId);
    return id.success ? this.repository.findById(id.data) : null;
  }

  /** The user with its password hash, or null; the hash is only ever looked up by email. */
  private async findRecord(userId: string): Promise<UserRecord | null> {
    const user = await this.findUser(userId);
    const record = user ? await this.repository.findByEmail(user.email) : null;
    // A deletion and a new signup with the same email between the two reads: not this user any more.
    return record?._id === user?._id ? record : null;
  }

  /** The signed-in user's record once `password` is proven to be its password; 401 without an account. */
  private async provenRecord(userId: string, password: string, wrong: () => HttpError): Promise<UserRecord> {
    const record = await this.findRecord(userId);
    const matches = await this.passwordMatches(record, password);
    if (!record) throw notSignedIn();
    if (!matches) throw wrong();
    return record;
  }

  /**
   * The one password check (login's): against the dummy hash when there is no record, so a missing account
   * costs the same hashing work as a wrong password. Never true without a record.
   */
  private async passwordMatches(record: UserRecord | null, password: string): Promise<boolean> {
    const matches = await this.hasher.verify(password, record?.passwordHash ?? (await this.dummyHash));
    return record !== null && matches;
  }

  /**
   * Issue #10: a hash stored with an older scheme or cost (scrypt) is replaced by today's (Argon2id) at a
   * successful sign-in, the one moment the password is at hand. Only while the stored hash is still the one
   * just checked, so a password changed meanwhile is never overwritten. A failure here is logged and the
   * sign-in goes on: the old hash still works, and the next sign-in tries again.
   */
  private async upgradeHash(record: UserRecord, password: string): Promise<void> {
    if (!this.hasher.needsRehash(record.passwordHash)) return;
    try {
      const passwordHash = await this.hasher.hash(password);
      await this.repository.replacePasswordHash(record._id, record.passwordHash, passwordHash);
    } catch (error) {
      this.logger.warn({ err: error, userId: record._id }, 'password hash upgrade failed; the stored hash is kept');
    }
  }
}

function publicUser({ passwordHash: _hash, ...user }: UserRecord): PublicUser {
  return user;
}

/** 400 on `field` when the password is common or guessable (NIST SP 800-63B), with the user's name and email as context. */
function refuseWeakPassword(field: string, password: string, { fullName, email }: { fullName: string; email: string }): void {
  if (!assessPassword(password, [fullName, email]).acceptable) {
    throw new ValidationError([{ path: [field], message: WEAK_PASSWORD_MESSAGE }]);
  }
}

function notSignedIn(): UnauthorizedError {
  return new UnauthorizedError('Not signed in', ErrorCode.unauthenticated);
}

/** 403, not 401: the session is fine, the password typed to confirm an action is not. */
function wrongPassword(field: string, message: string): HttpError {
  return new HttpError(403, message, ErrorCode.wrongPassword, [{ path: [field], message }]);
}

function emailTaken(): ConflictError {
  return new ConflictError('An account with this email already exists', ErrorCode.emailTaken);
}
