// The account mails' two ways out (README "Configuration": SMTP_URL, MAIL_FROM): over SMTP to a real SMTP
// server listening on 127.0.0.1 (smtp-server, the library nodemailer's authors test with), and the embedded
// default, the local outbox and the log. Also through the built svc-users process, configured by its environment.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { INTERNAL_API, type UserResponse } from '@tm/contracts';
import { createLogger } from '@tm/service-kit';
import { jsonLogSink, readOutbox, REPO_ROOT, resetLinkOf, signedCall, startProcess, tempDir, TEST_SECRET, waitForMail, type RunningProcess } from '@tm/test-support';
import { SMTPServer } from 'smtp-server';
import { createMailer, OUTBOX_DIR } from './nodemailer-mailer.js';
import { resetMail } from './account-mail.js';

interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that wants a user name and password, and keeps what it receives. */
async function startSmtpServer(): Promise<{ port: number; received: Received[]; stop: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    // Plain text on the loopback interface only; authentication is still required.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 'secret pass') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
    logger: false,
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return { port, received, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The text of a received message, its quoted-printable soft line breaks and escapes undone. */
function decoded(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

async function until<T>(check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const someone = { email: 'ada@example.com', fullName: 'Ada Lovelace' };
const LINK = 'https://tasks.example.test/reset-password?token=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';

describe('the mailer (nodemailer)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp.stop());

  it('sends over SMTP with SMTP_URL: authenticated with the URL\'s user, from MAIL_FROM, to the person, the link intact', async () => {
    const data = tempDir('tm-mail-');
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:${encodeURIComponent('secret pass')}@127.0.0.1:${smtp.port}`,
      from: 'Task Manager <no-reply@tasks.example.test>',
      dataDir: data.dir,
      logger: createLogger('svc-users', 'silent'),
    });
    try {
      await mailer.send(resetMail(someone, LINK));
      const [message] = smtp.received.splice(0);
      expect(message).toMatchObject({ from: 'no-reply@tasks.example.test', to: ['ada@example.com'], user: 'mailer' });
      expect(message?.raw).toMatch(/^Subject: Reset your Task Manager password\r?$/m);
      expect(decoded(message?.raw ?? '')).toContain(LINK);
      // Nothing went to the outbox.
      expect(readOutbox(data.dir)).toEqual([]);
    } finally {
      mailer.close();
      data.remove();
    }
  });

  it('fails the send (for the caller to log) when the SMTP server refuses the credentials', async () => {
    const data = tempDir('tm-mail-');
    const mailer = createMailer({ smtpUrl: `smtp://mailer:wrong@127.0.0.1:${smtp.port}`, from: 'no-reply@tasks.example.test', dataDir: data.dir, logger: createLogger('svc-users', 'silent') });
    try {
      await expect(mailer.send(resetMail(someone, LINK))).rejects.toThrow(/Invalid username or password|auth/i);
      expect(smtp.received).toEqual([]);
    } finally {
      mailer.close();
      data.remove();
    }
  });

  it('without SMTP_URL keeps the mail in DATA_DIR/outbox (owner-only) and logs its text, the link included, at info', async () => {
    const data = tempDir('tm-mail-');
    const { stream, lines } = jsonLogSink();
    const mailer = createMailer({ from: 'Task Manager <no-reply@localhost>', dataDir: data.dir, logger: createLogger('svc-users', 'info', 'json', stream) });
    try {
      await mailer.send(resetMail(someone, LINK));
      const [mail] = readOutbox(data.dir);
      expect(mail).toMatchObject({ to: ['ada@example.com'], subject: 'Reset your Task Manager password' });
      expect(resetLinkOf(mail ?? { text: '' }).toString()).toBe(LINK);
      expect(statSync(mail?.file ?? '').mode & 0o777).toBe(0o600);
      expect(statSync(`${data.dir}/${OUTBOX_DIR}`).mode & 0o777).toBe(0o700);
      await until(() => (lines.length > 0 ? true : undefined));
      expect(lines[0]).toMatchObject({ level: 30, msg: 'mail kept in the local outbox (no SMTP_URL)', mail: { to: 'ada@example.com' }, file: mail?.file });
      expect(String((lines[0]?.mail as { text?: unknown }).text)).toContain(LINK);
    } finally {
      mailer.close();
      data.remove();
    }
  });

  describe('the built svc-users process, configured by its environment', () => {
    let data: ReturnType<typeof tempDir>;
    let users: RunningProcess | undefined;
    beforeEach(() => {
      data = tempDir('tm-mail-process-');
    });
    afterEach(async () => {
      await users?.stop();
      users = undefined;
      data.remove();
    });

    /** Signs someone up on `users` and asks for a reset link as the gateway would. */
    async function askForLink(email: string): Promise<void> {
      const created = await signedCall<UserResponse>(users?.url ?? '', { method: 'POST', path: '/user/signup', body: { fullName: 'Ada Lovelace', email, password: 'analytical-engine' } });
      expect(created.status).toBe(201);
      const asked = await signedCall(users?.url ?? '', {
        method: 'POST',
        path: INTERNAL_API.sendPasswordReset.path,
        body: { email, resetPage: 'http://127.0.0.1:8080/reset-password' },
      });
      expect(asked.status).toBe(200);
    }

    it('sends the link over SMTP with SMTP_URL and MAIL_FROM', async () => {
      users = await startProcess('svc-users', {
        DATA_DIR: data.dir,
        INTERNAL_SECRET: TEST_SECRET,
        SMTP_URL: `smtp://mailer:${encodeURIComponent('secret pass')}@127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Task Manager <no-reply@tasks.example.test>',
      });
      await askForLink('grace@example.com');
      const message = await until(() => smtp.received.find((received) => received.to.includes('grace@example.com')));
      expect(message).toMatchObject({ from: 'no-reply@tasks.example.test', user: 'mailer' });
      expect(decoded(message.raw)).toMatch(/http:\/\/127\.0\.0\.1:8080\/reset-password\?token=[A-Za-z0-9_-]{43}/);
      expect(readOutbox(data.dir)).toEqual([]);
      // The URL, which carries the SMTP password, is never logged.
      expect(JSON.stringify(users.logs)).not.toContain('secret');
      expect(users.logs).toContainEqual(expect.objectContaining({ msg: 'account mail', mail: 'smtp' }));
    });

    it('keeps the mail in DATA_DIR/outbox and logs the link without SMTP_URL', async () => {
      users = await startProcess('svc-users', { DATA_DIR: data.dir, INTERNAL_SECRET: TEST_SECRET });
      await askForLink('hedy@example.com');
      const mail = await waitForMail(data.dir, 'hedy@example.com');
      const link = resetLinkOf(mail).toString();
      await until(() => (users?.logs.some((line) => line.msg === 'mail kept in the local outbox (no SMTP_URL)') ? true : undefined));
      expect(JSON.stringify(users.logs)).toContain(link);
    });

    it('refuses to start with SMTP_URL but no MAIL_FROM, or with a URL that is not SMTP', async () => {
      /** Starts the built svc-users with `env` and resolves to its exit code and what it wrote to stderr. */
      const start = (env: Record<string, string>) =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          execFile(process.execPath, [path.join(REPO_ROOT, 'svc-users/dist/server.js')], { env: { ...process.env, USERS_PORT: '0', DATA_DIR: data.dir, INTERNAL_SECRET: TEST_SECRET, ...env } }, (error, _stdout, stderr) => {
            resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr });
          });
        });
      // Each start is a process of its own (slow on a busy machine): both at once.
      const [noSender, notSmtp] = await Promise.all([
        start({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` }),
        start({ SMTP_URL: 'https://mail.example.com', MAIL_FROM: 'a@example.com' }),
      ]);
      expect(noSender).toEqual({ code: 1, stderr: expect.stringMatching(/MAIL_FROM: is required when SMTP_URL is set/) });
      expect(notSmtp).toEqual({ code: 1, stderr: expect.stringMatching(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/) });
    }, 60_000);
  });
});
