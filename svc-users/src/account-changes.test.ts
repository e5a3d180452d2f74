// Profile changes, password reset links and concurrent password writes (docs/PRODUCT.md §10.10, SECURITY.md
// "Password reset"), over real HTTP against svc-users on a real SQLite file, its mails in the local outbox.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode, INTERNAL_API, PasswordResetDone, UserResponse } from '@tm/contracts';
import { WEAK_PASSWORD_MESSAGE } from '@tm/password-policy';
import { mailsTo, readOutbox, resetLinkOf, signedCall, waitForMail } from '@tm/test-support';
import Database from 'better-sqlite3';
import { Argon2idPasswordHasher } from './argon2id-password.hasher.js';
import { LOCAL_MAIL_FROM } from './config.js';
import { createMailer } from './nodemailer-mailer.js';
import type { PasswordHasher } from './password.hasher.js';
import { RESET_LINK_TTL_MS } from './account.domain.js';
import { SQLITE_FILE } from './sqlite-users.store.js';
import { startTestService, type TestService } from './users.test-helpers.js';

const RESET_PAGE = 'https://tasks.example.test/reset-password';
const SENT = 'If an account exists for that address, we sent it a link to choose a new password. The link works once, for 30 minutes.';
const LINK_INVALID = 'This link has expired or was already used. Ask for a new one.';
const NEW_PASSWORD = 'seven purple elephants dancing';

const signup = (url: string, body: unknown) => signedCall<UserResponse>(url, { method: 'POST', path: '/user/signup', body });
const login = (url: string, email: string, password: string) => signedCall<UserResponse>(url, { method: 'POST', path: '/user/login', body: { email, password } });
const updateProfile = (url: string, userId: string | undefined, body: unknown) => signedCall<UserResponse>(url, { method: 'PUT', path: '/user/profile', userId, body });
const changePassword = (url: string, userId: string, body: unknown) => signedCall(url, { method: 'PUT', path: '/user/password', userId, body });
const askForLink = (url: string, email: string, resetPage = RESET_PAGE) =>
  signedCall(url, { method: INTERNAL_API.sendPasswordReset.method, path: INTERNAL_API.sendPasswordReset.path, body: { email, resetPage } });
const useLink = (url: string, token: string, newPassword: string) =>
  signedCall<PasswordResetDone>(url, { method: INTERNAL_API.usePasswordReset.method, path: INTERNAL_API.usePasswordReset.path, body: { token, newPassword } });

let counter = 0;
function person(fullName = 'Ada Lovelace') {
  counter += 1;
  return { fullName, email: `ada${counter}-${process.pid}@example.com`, password: 'analytical-engine' };
}

/** Signs `someone` up and returns the id. */
async function signedUp(service: TestService, someone: ReturnType<typeof person>): Promise<string> {
  const created = await signup(service.url, someone);
  expect(created.status).toBe(201);
  return created.body.user._id;
}

/** Asks for a link for `email` and returns the token of the mail that came (the `count`-th to that address). */
async function tokenFor(service: TestService, email: string, count = 1): Promise<string> {
  expect(await askForLink(service.url, email)).toMatchObject({ status: 200, body: { message: SENT } });
  const mail = await waitForMail(service.dataDir, email, { subject: /^Reset your Task Manager password$/, count });
  const link = resetLinkOf(mail);
  expect(`${link.origin}${link.pathname}`).toBe(RESET_PAGE);
  return link.searchParams.get('token') ?? '';
}

/** Only `password` signs in as `email` among `candidates` and it. */
async function expectOnlyPassword(service: TestService, email: string, password: string, others: string[]): Promise<void> {
  expect((await login(service.url, email, password)).status).toBe(200);
  for (const other of others) expect((await login(service.url, email, other)).status).toBe(401);
}

/** A clock the test moves. */
function testClock(start = Date.parse('2030-05-01T09:00:00.000Z')) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('password reset links (svc-users)', () => {
  let service: TestService;
  let clock: ReturnType<typeof testClock>;
  beforeEach(async () => {
    clock = testClock();
    service = await startTestService({ now: clock.now });
  });
  afterEach(() => service.stop());

  it('mails a link to an address with an account, nothing to one without, and answers both the same', async () => {
    const ada = person();
    await signedUp(service, ada);
    const known = await askForLink(service.url, ada.email);
    const unknown = await askForLink(service.url, 'nobody-here@example.com');
    expect(known).toMatchObject({ status: 200, body: { message: SENT } });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
    await service.settled();
    const [mail] = mailsTo(service.dataDir, ada.email);
    expect(mail).toMatchObject({ subject: 'Reset your Task Manager password' });
    expect(mail?.text).toContain('Hello Ada Lovelace');
    expect(mail?.text).toMatch(/works once, for 30 minutes/);
    expect(mail?.html).toContain(`<a href="${resetLinkOf(mail ?? { text: '' }).toString()}">`);
    expect(readOutbox(service.dataDir).filter((sent) => sent.to.includes('nobody-here@example.com'))).toEqual([]);
  });

  it('answers at once: finding the account and sending the mail come after the answer', async () => {
    const ada = person();
    await signedUp(service, ada);
    await service.stop();
    // The same service, with the outbox held shut until the test opens it.
    let open: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      open = resolve;
    });
    service = await startTestService({
      now: clock.now,
      mailer: (dataDir, logger) => {
        const outbox = createMailer({ from: LOCAL_MAIL_FROM, dataDir, logger });
        return { send: async (mail) => held.then(() => outbox.send(mail)), close: () => outbox.close() };
      },
    });
    await signedUp(service, ada);
    const answered = await askForLink(service.url, ada.email);
    expect(answered).toMatchObject({ status: 200, body: { message: SENT } });
    expect(mailsTo(service.dataDir, ada.email)).toEqual([]);
    open();
    await service.settled();
    expect(mailsTo(service.dataDir, ada.email)).toHaveLength(1);
  });

  it('keeps only the SHA-256 digest of the token, never the token itself', async () => {
    const ada = person();
    await signedUp(service, ada);
    const token = await tokenFor(service, ada.email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const db = new Database(path.join(service.dataDir, SQLITE_FILE), { readonly: true });
    try {
      expect(db.prepare('SELECT token_hash FROM password_resets').all()).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);
    } finally {
      db.close();
    }
    for (const file of readdirSync(service.dataDir).filter((name) => name.startsWith(SQLITE_FILE))) {
      expect(readFileSync(path.join(service.dataDir, file)).includes(token)).toBe(false);
    }
  });

  it('sets the new password once: the old one stops working, the link then answers 400, and the owner is told', async () => {
    const ada = person();
    const id = await signedUp(service, ada);
    const token = await tokenFor(service, ada.email);
    const used = await useLink(service.url, token, NEW_PASSWORD);
    expect(used.status).toBe(200);
    expect(PasswordResetDone.strict().parse(used.body)).toEqual({ message: 'Your password was changed. Sign in with your new password.', userId: id, email: ada.email });
    await expectOnlyPassword(service, ada.email, NEW_PASSWORD, [ada.password]);

    const again = await useLink(service.url, token, 'yet another fine passphrase');
    expect({ status: again.status, body: again.body }).toEqual({
      status: 400,
      body: { message: LINK_INVALID, code: ErrorCode.resetLinkInvalid, issues: [{ path: ['token'], message: LINK_INVALID }] },
    });
    await expectOnlyPassword(service, ada.email, NEW_PASSWORD, ['yet another fine passphrase']);
    const notice = await waitForMail(service.dataDir, ada.email, { subject: /^Your Task Manager password was changed$/ });
    expect(notice.text).toMatch(/every device was signed out/);
  });

  it('lets only one of two requests with one link through, at the same moment', async () => {
    const ada = person();
    await signedUp(service, ada);
    const token = await tokenFor(service, ada.email);
    const answers = await Promise.all([useLink(service.url, token, NEW_PASSWORD), useLink(service.url, token, 'a second new passphrase')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const winner = answers[0]?.status === 200 ? NEW_PASSWORD : 'a second new passphrase';
    const loser = winner === NEW_PASSWORD ? 'a second new passphrase' : NEW_PASSWORD;
    await expectOnlyPassword(service, ada.email, winner, [ada.password, loser]);
  });

  it('works until 30 minutes after it was sent, and not after', async () => {
    const ada = person();
    await signedUp(service, ada);
    const early = await tokenFor(service, ada.email, 1);
    clock.advance(RESET_LINK_TTL_MS - 1);
    expect((await useLink(service.url, early, NEW_PASSWORD)).status).toBe(200);

    const late = await tokenFor(service, ada.email, 2);
    clock.advance(RESET_LINK_TTL_MS);
    expect(await useLink(service.url, late, 'too late for this one')).toMatchObject({ status: 400, body: { code: ErrorCode.resetLinkInvalid } });
    await expectOnlyPassword(service, ada.email, NEW_PASSWORD, ['too late for this one']);
  });

  it('refuses a new password the sign-up rules refuse, at the field, and the link still works', async () => {
    const ada = person();
    await signedUp(service, ada);
    const token = await tokenFor(service, ada.email);
    const weak = await useLink(service.url, token, 'password123');
    expect({ status: weak.status, body: weak.body }).toEqual({
      status: 400,
      body: { message: WEAK_PASSWORD_MESSAGE, code: ErrorCode.validation, issues: [{ path: ['newPassword'], message: WEAK_PASSWORD_MESSAGE }] },
    });
    expect((await useLink(service.url, token, 'short')).status).toBe(400);
    expect((await useLink(service.url, token, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses an unknown, empty or absurd token with the same 400, and changes nothing', async () => {
    const ada = person();
    await signedUp(service, ada);
    for (const token of ['not-a-token', 'A'.repeat(43), 'x'.repeat(256)]) {
      expect(await useLink(service.url, token, NEW_PASSWORD)).toMatchObject({ status: 400, body: { code: ErrorCode.resetLinkInvalid } });
    }
    expect(await useLink(service.url, '', NEW_PASSWORD)).toMatchObject({ status: 400, body: { code: ErrorCode.validation, issues: [{ path: ['token'] }] } });
    expect((await useLink(service.url, 'x'.repeat(257), NEW_PASSWORD)).status).toBe(400);
    await expectOnlyPassword(service, ada.email, ada.password, [NEW_PASSWORD]);
  });

  it('stops every other link of the account once one was used, and every link once the password changed', async () => {
    const ada = person();
    const id = await signedUp(service, ada);
    const [first, second] = [await tokenFor(service, ada.email, 1), await tokenFor(service, ada.email, 2)];
    expect((await useLink(service.url, second, NEW_PASSWORD)).status).toBe(200);
    expect((await useLink(service.url, first, 'another new passphrase')).status).toBe(400);

    const third = await tokenFor(service, ada.email, 3);
    expect((await changePassword(service.url, id, { currentPassword: NEW_PASSWORD, newPassword: 'changed on the account page' })).status).toBe(200);
    expect((await useLink(service.url, third, 'another new passphrase')).status).toBe(400);
    await expectOnlyPassword(service, ada.email, 'changed on the account page', ['another new passphrase']);
  });

  it('does not work once the account is deleted', async () => {
    const ada = person();
    const id = await signedUp(service, ada);
    const token = await tokenFor(service, ada.email);
    expect((await signedCall(service.url, { method: 'DELETE', path: INTERNAL_API.deleteUser.path, userId: id })).status).toBe(200);
    expect(await useLink(service.url, token, NEW_PASSWORD)).toMatchObject({ status: 400, body: { code: ErrorCode.resetLinkInvalid } });
  });

  it('removes links that expired when the next one is asked for', async () => {
    const ada = person();
    await signedUp(service, ada);
    await tokenFor(service, ada.email, 1);
    clock.advance(RESET_LINK_TTL_MS + 1);
    await tokenFor(service, ada.email, 2);
    const db = new Database(path.join(service.dataDir, SQLITE_FILE), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM password_resets').get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it('refuses a request without a valid email or reset page, and sends nothing', async () => {
    const ada = person();
    await signedUp(service, ada);
    expect((await askForLink(service.url, 'not an email')).status).toBe(400);
    expect((await askForLink(service.url, ada.email, 'javascript:alert(1)')).status).toBe(400);
    expect((await askForLink(service.url, ada.email, 'not a url')).status).toBe(400);
    await service.settled();
    expect(mailsTo(service.dataDir, ada.email)).toEqual([]);
  });
});

/**
 * A hasher whose `verify` holds each caller until `size` callers have verified: two requests are then
 * certainly between their check and their write at the same moment, on any machine.
 */
class MeetingHasher implements PasswordHasher {
  private meeting: { size: number; arrived: number; all: Promise<void>; open: () => void } | undefined;
  constructor(private readonly inner: PasswordHasher) {}

  /** The next `size` verifications wait for one another. */
  meet(size: number): void {
    let open: () => void = () => undefined;
    const all = new Promise<void>((resolve) => {
      open = resolve;
    });
    this.meeting = { size, arrived: 0, all, open };
  }

  hash(password: string): Promise<string> {
    return this.inner.hash(password);
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const matches = await this.inner.verify(password, stored);
    const meeting = this.meeting;
    if (meeting) {
      meeting.arrived += 1;
      if (meeting.arrived >= meeting.size) {
        this.meeting = undefined;
        meeting.open();
      }
      await meeting.all;
    }
    return matches;
  }

  needsRehash(stored: string): boolean {
    return this.inner.needsRehash(stored);
  }
}

describe('password writes at the same moment (compare and set, PRODUCT §10.10)', () => {
  let service: TestService;
  let hasher: MeetingHasher;
  beforeEach(async () => {
    hasher = new MeetingHasher(new Argon2idPasswordHasher());
    service = await startTestService({ hasher });
  });
  afterEach(() => service.stop());

  it('two changes with the proven password: one answers 200, the other 409, and only the first password works', async () => {
    const ada = person();
    const id = await signedUp(service, ada);
    hasher.meet(2);
    const answers = await Promise.all(
      ['first new passphrase here', 'second new passphrase here'].map((newPassword) => changePassword(service.url, id, { currentPassword: ada.password, newPassword })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const lost = answers.find((answer) => answer.status === 409);
    expect(lost?.body).toEqual({
      message: 'Your password was just changed elsewhere, so this change was not made. Sign in with the new password.',
      code: ErrorCode.passwordChangedConcurrently,
    });
    const winner = answers[0]?.status === 200 ? 'first new passphrase here' : 'second new passphrase here';
    const loser = winner === 'first new passphrase here' ? 'second new passphrase here' : 'first new passphrase here';
    await expectOnlyPassword(service, ada.email, winner, [ada.password, loser]);
  });

  it('a change and a reset at the same moment: the one that wrote second gets 409, and its password does not work', async () => {
    const ada = person();
    const id = await signedUp(service, ada);
    expect((await askForLink(service.url, ada.email)).status).toBe(200);
    const token = resetLinkOf(await waitForMail(service.dataDir, ada.email)).searchParams.get('token') ?? '';
    // The change's check waits for the reset's start; the reset hashes its new password meanwhile.
    hasher.meet(2);
    const reset = useLink(service.url, token, 'reset passphrase wins maybe');
    const change = changePassword(service.url, id, { currentPassword: ada.password, newPassword: 'change passphrase wins maybe' });
    // The reset verifies nothing; a sign-in attempt is the second verification that opens the meeting.
    const [resetAnswer, changeAnswer] = await Promise.all([reset, change, login(service.url, ada.email, 'not the password')]);
    const statuses = [resetAnswer.status, changeAnswer.status];
    expect(statuses).toContain(200);
    expect(statuses.filter((status) => status === 409)).toHaveLength(1);
    const conflict = resetAnswer.status === 409 ? resetAnswer : changeAnswer;
    expect(conflict.body).toMatchObject({ code: ErrorCode.passwordChangedConcurrently });
    const winner = resetAnswer.status === 200 ? 'reset passphrase wins maybe' : 'change passphrase wins maybe';
    const loser = winner === 'reset passphrase wins maybe' ? 'change passphrase wins maybe' : 'reset passphrase wins maybe';
    await expectOnlyPassword(service, ada.email, winner, [ada.password, loser]);
  });
});

describe('profile changes (svc-users)', () => {
  let service: TestService;
  beforeEach(async () => {
    service = await startTestService();
  });
  afterEach(() => service.stop());

  it('changes the name without a password, trimmed, and answers the user as it now is', async () => {
    const ada = person();
    const id = await signedUp(service, ada);
    const renamed = await updateProfile(service.url, id, { fullName: '  Ada King  ' });
    expect(renamed.status).toBe(200);
    expect(UserResponse.strict().parse(renamed.body)).toEqual({ message: 'Your details were saved', user: { _id: id, fullName: 'Ada King', email: ada.email } });
    expect((await login(service.url, ada.email, ada.password)).body.user.fullName).toBe('Ada King');
  });

  it('changes the email only with the current password: 400 without, 403 when wrong, then 200; the old address is told', async () => {
    const ada = person();
    const id = await signedUp(service, ada);
    const newEmail = person().email;
    const without = await updateProfile(service.url, id, { email: newEmail });
    expect({ status: without.status, body: without.body }).toEqual({
      status: 400,
      body: {
        message: 'Enter your current password to change your email',
        code: ErrorCode.validation,
        issues: [{ path: ['currentPassword'], message: 'Enter your current password to change your email' }],
      },
    });
    const wrong = await updateProfile(service.url, id, { email: newEmail, currentPassword: 'not my password' });
    expect({ status: wrong.status, body: wrong.body }).toEqual({
      status: 403,
      body: { message: 'The current password is incorrect', code: ErrorCode.wrongPassword, issues: [{ path: ['currentPassword'], message: 'The current password is incorrect' }] },
    });
    expect((await login(service.url, ada.email, ada.password)).status).toBe(200);

    const moved = await updateProfile(service.url, id, { fullName: 'Ada King', email: `  ${newEmail.toUpperCase()} `, currentPassword: ada.password });
    expect(moved).toMatchObject({ status: 200, body: { user: { _id: id, fullName: 'Ada King', email: newEmail } } });
    expect((await login(service.url, newEmail, ada.password)).status).toBe(200);
    expect((await login(service.url, ada.email, ada.password)).status).toBe(401);
    const notice = await waitForMail(service.dataDir, ada.email, { subject: /^Your Task Manager email address was changed$/ });
    expect(notice.text).toContain(`to ${newEmail}`);
  });

  it('refuses an email another account has with 409 on the email field, and changes nothing', async () => {
    const [ada, grace] = [person(), person('Grace Hopper')];
    const id = await signedUp(service, ada);
    await signedUp(service, grace);
    const taken = await updateProfile(service.url, id, { fullName: 'Ada King', email: grace.email, currentPassword: ada.password });
    expect({ status: taken.status, body: taken.body }).toEqual({
      status: 409,
      body: { message: 'An account with this email already exists', code: ErrorCode.emailTaken, issues: [{ path: ['email'], message: 'An account with this email already exists' }] },
    });
    expect((await login(service.url, ada.email, ada.password)).body.user).toEqual({ _id: id, fullName: ada.fullName, email: ada.email });
  });

  it('holds the fields to the sign-up rules and needs one of them; the same email needs no password', async () => {
    const ada = person();
    const id = await signedUp(service, ada);
    for (const body of [{}, { fullName: '   ' }, { fullName: 'x'.repeat(101) }, { email: 'not an email', currentPassword: ada.password }, { fullName: 42 }]) {
      expect([JSON.stringify(body), (await updateProfile(service.url, id, body)).status]).toEqual([JSON.stringify(body), 400]);
    }
    expect(await updateProfile(service.url, id, { email: ada.email.toUpperCase() })).toMatchObject({ status: 200, body: { user: { email: ada.email } } });
    await service.settled();
    expect(mailsTo(service.dataDir, ada.email)).toEqual([]);
  });

  it('answers 401 without a user or for an account that is gone', async () => {
    expect((await updateProfile(service.url, undefined, { fullName: 'Nobody' })).status).toBe(401);
    expect((await updateProfile(service.url, '0123456789abcdef01234567', { fullName: 'Nobody' })).status).toBe(401);
  });
});
