import { randomBytes } from 'node:crypto';
import {
  CALENDAR_FEED_NOT_FOUND_MESSAGE,
  ErrorCode,
  type CalendarFeedOwner,
  type CalendarFeedState,
  type ChangePasswordRequest,
  type LoginRequest,
  type PublicUser,
  type ResetPasswordRequest,
  type SendPasswordResetRequest,
  type SignupRequest,
  type UpdateProfileRequest,
} from '@tm/contracts';
import { WEAK_PASSWORD_MESSAGE } from '@tm/password-policy';
import { ConflictError, HttpError, UnauthorizedError, ValidationError } from '@tm/service-kit/errors';
import { emailChangedNotice, passwordResetNotice, resetMail, type AccountMail } from './account-mail.js';
import {
  accountId,
  knownTimeZone,
  lostPasswordWrite,
  newCalendarFeed,
  newPasswordRefusal,
  newPasswordReset,
  passwordWrite,
  planProfileChange,
  publicUser,
  resetLink,
  resetLinkWorks,
  secretTokenHash,
  sameAccount,
  UNKNOWN_TIME_ZONE_MESSAGE,
  type PasswordWrite,
} from './account.domain.js';
import type { Mailer } from './mailer.js';
import type { PasswordHasher } from './password.hasher.js';
import { DuplicateEmailError, type UserRecord, type UsersRepository } from './users.repository.js';

const PASSWORD_MESSAGES = {
  wrongCurrent: 'The current password is incorrect',
  wrong: 'The password is incorrect',
  sameAsCurrent: 'Choose a password different from your current one',
  /** PRODUCT §10.10: two changes at once, or a change and a reset: the one that read the password first lost. */
  changedElsewhere: 'Your password was just changed elsewhere, so this change was not made. Sign in with the new password.',
  resetChangedElsewhere: 'Your password was just changed elsewhere, so it was not reset. Sign in with the new password, or ask for a new link.',
  resetLinkInvalid: 'This link has expired or was already used. Ask for a new one.',
  emailNeedsPassword: 'Enter your current password to change your email',
} as const;

/** What the service logs through (pino's logger fits); services do not import the kit (no Koa here). */
export interface ServiceLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

export interface UsersServiceDeps {
  repository: UsersRepository;
  hasher: PasswordHasher;
  logger: ServiceLogger;
  /** Sends the reset links and the notices (SMTP, or the local outbox). */
  mailer: Mailer;
  /** The time, for reset links (created, expiring, used); tests may inject a clock. */
  now?: () => Date;
}

/**
 * Account use cases: signup, credential check, profile, password change and reset, deletion. Applies the rules
 * of account.domain.ts through the repository, the hasher and the mailer, and turns their refusals into the
 * typed errors of @tm/service-kit/errors (status, code, message); knows neither Koa nor the store behind it.
 */
export class UsersService {
  private readonly repository: UsersRepository;
  private readonly hasher: PasswordHasher;
  private readonly logger: ServiceLogger;
  /**
   * Checked against when the email is unknown, so that path does the same hashing work as a wrong password
   * and response time does not tell which emails have accounts. Made once, at start-up.
   */
  private readonly dummyHash: Promise<string>;
  private readonly mailer: Mailer;
  private readonly now: () => Date;
  /** Work done after its request was answered (a reset link's lookup and mail, notices), until it settles. */
  private readonly pending = new Set<Promise<void>>();

  constructor({ repository, hasher, logger, mailer, now = () => new Date() }: UsersServiceDeps) {
    this.repository = repository;
    this.hasher = hasher;
    this.logger = logger;
    this.mailer = mailer;
    this.now = now;
    this.dummyHash = hasher.hash(randomBytes(16).toString('base64'));
    // Awaited on first use; this only keeps an early failure from being reported as unhandled.
    this.dummyHash.catch(() => undefined);
  }

  /**
   * Creates an account; 409 when the email is taken, including by a signup racing this one; 400 on `timeZone`
   * for a time zone that is not known (PRODUCT §10.14). Without a time zone the account has none.
   */
  async signup({ fullName, email, password, timeZone }: SignupRequest): Promise<PublicUser> {
    if (timeZone !== undefined && !knownTimeZone(timeZone)) throw unknownTimeZone();
    refuseNewPassword('password', newPasswordRefusal(password, { fullName, email }));
    // Cheap early answer for the common case; the store's unique constraint is what actually decides.
    if (await this.repository.findByEmail(email)) throw emailTaken();
    const passwordHash = await this.hasher.hash(password);
    try {
      return await this.repository.create({ fullName, email, passwordHash, ...(timeZone === undefined ? {} : { timeZone }) });
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
   * weak or the same as the current one, 401 when the account no longer exists. The write is a compare and
   * set on the hash that was proven (PRODUCT §10.10): when another change or a reset wrote first, nothing is
   * written and the answer is 409 `USER.PASSWORD_CHANGED_CONCURRENTLY`, so two changes at once never both
   * answer 200 with only one of them in force. Reset links sent before the change stop working, in the same
   * write.
   */
  async changePassword(userId: string, { currentPassword, newPassword }: ChangePasswordRequest): Promise<void> {
    const record = await this.provenRecord(userId, currentPassword, () =>
      wrongPassword('currentPassword', PASSWORD_MESSAGES.wrongCurrent),
    );
    refuseNewPassword('newPassword', newPasswordRefusal(newPassword, record, currentPassword));
    const passwordHash = await this.hasher.hash(newPassword);
    await this.writeProvenHash(passwordWrite('change', record, passwordHash), PASSWORD_MESSAGES.changedElsewhere, notSignedIn);
  }

  /**
   * A new name, email and/or time zone (PRODUCT §10.10, §10.14), the name and email held to the sign-up rules by
   * the request schema. A time zone that is not known is a 400 on `timeZone` and nothing is written. A new email
   * needs the current password (400 without it, 403 when it is wrong) and must be free (409, even against a
   * racing sign-up or change); the old address is told. A value equal to the current one changes nothing and
   * needs nothing. Answers the user as it now is; 401 when the account no longer exists.
   */
  async updateProfile(userId: string, { fullName, email, currentPassword, timeZone }: UpdateProfileRequest): Promise<PublicUser> {
    const user = await this.findUser(userId);
    if (!user) throw notSignedIn();
    const plan = planProfileChange(user, { fullName, email, currentPassword, timeZone });
    if (plan.kind === 'unchanged') return user;
    if (plan.kind === 'refused') {
      if (plan.reason === 'unknown-time-zone') throw unknownTimeZone();
      throw new ValidationError([{ path: ['currentPassword'], message: PASSWORD_MESSAGES.emailNeedsPassword }]);
    }
    if (plan.prove !== null) {
      await this.provenRecord(userId, plan.prove, () => wrongPassword('currentPassword', PASSWORD_MESSAGES.wrongCurrent));
    }
    let updated: PublicUser | null;
    try {
      updated = await this.repository.updateProfile(user._id, plan.changes);
    } catch (error) {
      if (error instanceof DuplicateEmailError) throw emailTaken(['email']);
      throw error;
    }
    if (!updated) throw notSignedIn();
    if (plan.tellOldAddress) this.later('email changed notice', () => this.mail(emailChangedNotice({ oldEmail: user.email, newEmail: updated.email, fullName: updated.fullName })));
    return updated;
  }

  /**
   * Asks for a reset link (PRODUCT §10.10, SECURITY.md "Password reset"). Returns at once, the same for every
   * address: finding the account, storing the token's digest and sending the mail happen after the answer,
   * so neither the answer nor its time tells whether the address has an account. An unknown address gets no
   * mail. Links that expired are removed on the way.
   */
  requestPasswordReset({ email, resetPage }: SendPasswordResetRequest): void {
    this.later('password reset link', async () => {
      const now = this.now();
      await this.repository.deleteExpiredPasswordResets(now);
      const record = await this.repository.findByEmail(email);
      if (!record) return;
      const { token, reset } = newPasswordReset(record._id, now);
      await this.repository.createPasswordReset(reset);
      await this.mail(resetMail(record, resetLink(resetPage, token)));
      this.logger.info({ userId: record._id }, 'password reset link sent');
    });
  }

  /**
   * Sets a new password with a link's token (PRODUCT §10.10): 400 `USER.RESET_LINK_INVALID` for a link that is
   * unknown, used, expired or whose account is gone; 400 on `newPassword` for a password the sign-up rules
   * refuse (the link still works then). The link is used up before the password is written (of two requests
   * with one link, one wins); the write is a compare and set on the hash read here, 409 when a change wrote
   * first, and every link of the account ends in the same write. The account's address is told. Resolves to
   * the user's id: the gateway ends every session of it.
   */
  async resetPassword({ token, newPassword }: ResetPasswordRequest): Promise<{ userId: string; email: string }> {
    const tokenHash = secretTokenHash(token);
    const reset = await this.repository.findPasswordReset(tokenHash);
    if (!resetLinkWorks(reset, this.now())) throw resetLinkInvalid();
    const record = await this.findRecord(reset.userId);
    if (!record) throw resetLinkInvalid();
    refuseNewPassword('newPassword', newPasswordRefusal(newPassword, record));
    const passwordHash = await this.hasher.hash(newPassword);
    if (!(await this.repository.consumePasswordReset(tokenHash, this.now()))) throw resetLinkInvalid();
    await this.writeProvenHash(passwordWrite('reset', record, passwordHash), PASSWORD_MESSAGES.resetChangedElsewhere, resetLinkInvalid);
    this.later('password reset notice', () => this.mail(passwordResetNotice(record)));
    return { userId: record._id, email: record.email };
  }

  /** Resolves once the work started after earlier answers (mails, notices) has settled: at shutdown, and in tests. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Whether the account's calendar feed is on, and since when (PRODUCT §10.18); 401 when the account is gone. */
  async calendarFeed(userId: string): Promise<CalendarFeedState> {
    const user = await this.findUser(userId);
    if (!user) throw notSignedIn();
    const feed = await this.repository.findCalendarFeed(user._id);
    return feed ? { on: true, since: feed.createdAt.toISOString() } : { on: false };
  }

  /**
   * A calendar feed with a new token (PRODUCT §10.18): the store keeps its digest in place of any earlier one,
   * whose address then opens nothing. Resolves to the token (shown to the person this once) and whether it
   * replaced an address; 401 when the account is gone.
   */
  async turnOnCalendarFeed(userId: string): Promise<{ token: string; since: string; replaced: boolean }> {
    const id = accountId(userId);
    if (id === null) throw notSignedIn();
    const replaced = (await this.repository.findCalendarFeed(id)) !== null;
    const { token, feed } = newCalendarFeed(this.now());
    if (!(await this.repository.setCalendarFeed(id, feed))) throw notSignedIn();
    return { token, since: feed.createdAt.toISOString(), replaced };
  }

  /** Turns the calendar feed off: its address opens nothing. Idempotent; 401 when the account is gone. */
  async turnOffCalendarFeed(userId: string): Promise<void> {
    const id = accountId(userId);
    if (id === null || !(await this.repository.clearCalendarFeed(id))) throw notSignedIn();
  }

  /**
   * Whose feed `token` opens, with the account's time zone (PRODUCT §10.18): 404 `CALENDAR.FEED_NOT_FOUND`, one and
   * the same, for a token that never was one, was replaced, turned off, or whose account is gone.
   */
  async calendarFeedOwner(token: string): Promise<CalendarFeedOwner> {
    const user = await this.repository.findByCalendarFeed(secretTokenHash(token));
    if (!user) throw new HttpError(404, CALENDAR_FEED_NOT_FOUND_MESSAGE, ErrorCode.calendarFeedNotFound);
    return { userId: user._id, ...(user.timeZone === undefined ? {} : { timeZone: user.timeZone }) };
  }

  /** Deletes the signed-in user's account. Idempotent: an account already gone (or never there) is fine. */
  async deleteAccount(userId: string): Promise<void> {
    const id = accountId(userId);
    if (id !== null) await this.repository.delete(id);
  }

  /** The user the vouched id names, or null when it is malformed or has no account. */
  private async findUser(userId: string): Promise<PublicUser | null> {
    const id = accountId(userId);
    return id === null ? null : this.repository.findById(id);
  }

  /**
   * Stores `write` (a compare and set on the proven hash, with what ends with it). When it wrote nothing:
   * `gone()` when the account no longer exists, else 409 with `changedElsewhere`.
   */
  private async writeProvenHash(write: PasswordWrite, changedElsewhere: string, gone: () => HttpError): Promise<void> {
    if (await this.storePasswordWrite(write)) return;
    const accountStillThere = (await this.repository.findById(write.userId)) !== null;
    if (lostPasswordWrite(accountStillThere) === 'account-gone') throw gone();
    throw new ConflictError(changedElsewhere, ErrorCode.passwordChangedConcurrently);
  }

  /** Hands `write` to the store: the new hash and, with `endResetLinks`, the end of every reset link, in one transaction. */
  private storePasswordWrite({ userId, current, next, endResetLinks }: PasswordWrite): Promise<boolean> {
    return this.repository.replacePasswordHash(userId, current, next, { endResetLinks });
  }

  /** Sends a mail; a failure is the caller's (logged by {@link later}). */
  private async mail(mail: AccountMail): Promise<void> {
    await this.mailer.send(mail);
  }

  /** Runs `work` after the current answer, keeping track of it until it settles; a failure is logged, never thrown. */
  private later(what: string, work: () => Promise<void>): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => this.logger.error({ err: error }, `${what} failed`))
      .finally(() => this.pending.delete(run));
    this.pending.add(run);
  }

  /** The user with its password hash, or null; the hash is only ever looked up by email. */
  private async findRecord(userId: string): Promise<UserRecord | null> {
    const user = await this.findUser(userId);
    const record = user ? await this.repository.findByEmail(user.email) : null;
    return user && record && sameAccount(user, record) ? record : null;
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
   * A hash stored with an older scheme or cost (scrypt) is replaced by today's (Argon2id) at a successful
   * sign-in, the one moment the password is at hand (SECURITY.md "Passwords"). Only while the stored hash is
   * still the one just checked, so a password changed meanwhile is never overwritten. A failure here is logged
   * and the sign-in goes on: the old hash still works, and the next sign-in tries again.
   */
  private async upgradeHash(record: UserRecord, password: string): Promise<void> {
    if (!this.hasher.needsRehash(record.passwordHash)) return;
    try {
      await this.storePasswordWrite(passwordWrite('rehash', record, await this.hasher.hash(password)));
    } catch (error) {
      this.logger.warn({ err: error, userId: record._id }, 'password hash upgrade failed; the stored hash is kept');
    }
  }
}

/** 400 on `field` when account.domain.ts refused the new password: too common or guessable, or the current one. */
function refuseNewPassword(field: string, refusal: ReturnType<typeof newPasswordRefusal>): void {
  if (refusal === null) return;
  const message = refusal === 'weak' ? WEAK_PASSWORD_MESSAGE : PASSWORD_MESSAGES.sameAsCurrent;
  throw new ValidationError([{ path: [field], message }]);
}

/** 400 on `timeZone`: a name account.domain.ts does not know as a time zone (PRODUCT §10.14). */
function unknownTimeZone(): ValidationError {
  return new ValidationError([{ path: ['timeZone'], message: UNKNOWN_TIME_ZONE_MESSAGE }]);
}

function notSignedIn(): UnauthorizedError {
  return new UnauthorizedError('Not signed in', ErrorCode.unauthenticated);
}

/** 403, not 401: the session is fine, the password typed to confirm an action is not. */
function wrongPassword(field: string, message: string): HttpError {
  return new HttpError(403, message, ErrorCode.wrongPassword, [{ path: [field], message }]);
}

const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';

/** 409 `USER.EMAIL_TAKEN`; with `path`, the issue names the field (the profile form shows it there). */
function emailTaken(path?: string[]): HttpError {
  return new HttpError(409, EMAIL_TAKEN_MESSAGE, ErrorCode.emailTaken, path ? [{ path, message: EMAIL_TAKEN_MESSAGE }] : undefined);
}

function resetLinkInvalid(): HttpError {
  return new HttpError(400, PASSWORD_MESSAGES.resetLinkInvalid, ErrorCode.resetLinkInvalid, [{ path: ['token'], message: PASSWORD_MESSAGES.resetLinkInvalid }]);
}
