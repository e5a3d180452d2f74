import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import type { Mailer } from './mailer.js';
import type { AccountMail } from './account-mail.js';

/** The folder under DATA_DIR where the embedded default keeps every mail, one JSON file each. */
export const OUTBOX_DIR = 'outbox';

/** What the mailer logs through (pino's logger fits). */
export interface MailLogger {
  info(details: Record<string, unknown>, message: string): void;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://…:465` (SMTP_URL): mail goes there. Unset: the outbox. */
  smtpUrl?: string | undefined;
  /** The sender (MAIL_FROM). */
  from: string;
  /** DATA_DIR: the outbox is `<dataDir>/outbox`. */
  dataDir: string;
  logger: MailLogger;
}

/**
 * Bounds on an SMTP server that does not answer: the mail is sent after the request was answered
 * (users.service.ts), so a slow server holds nothing of a person's, but shutdown waits for mails on their way.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

/**
 * Mail over SMTP with nodemailer when `smtpUrl` is set (README "Configuration": SMTP_URL, MAIL_FROM): the
 * server's TLS (smtps, or STARTTLS when offered), its authentication from the URL.
 */
function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  return {
    send: async ({ to, subject, text, html }) => {
      await transport.sendMail({ from, to, subject, text, html });
    },
    close: () => transport.close(),
  };
}

/**
 * The embedded default, without SMTP (SECURITY.md "Password reset"): each mail is composed by nodemailer's
 * JSON transport and written to `<dataDir>/outbox/<time>-<id>.json` (readable by its owner only; written under
 * a temporary name and renamed, so a reader never sees half a file), and logged at info level with its text,
 * the link included, so whoever runs `npm start` can open it. Acceptable only there: the log and the folder
 * are the operator's own, on their machine.
 */
function outboxMailer(dataDir: string, from: string, logger: MailLogger): Mailer {
  const transport = createTransport({ jsonTransport: true });
  const folder = path.join(dataDir, OUTBOX_DIR);
  return {
    send: async (mail: AccountMail) => {
      const { to, subject, text, html } = mail;
      const info = await transport.sendMail({ from, to, subject, text, html });
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.json`;
      const file = path.join(folder, name);
      await writeFile(`${file}.tmp`, info.message, { mode: 0o600 });
      await rename(`${file}.tmp`, file);
      logger.info({ mail: { to, subject, text }, file }, 'mail kept in the local outbox (no SMTP_URL)');
    },
    close: () => transport.close(),
  };
}

/** The mailer the configuration asks for: SMTP with `smtpUrl`, else the local outbox. */
export function createMailer({ smtpUrl, from, dataDir, logger }: MailerOptions): Mailer {
  return smtpUrl ? smtpMailer(smtpUrl, from) : outboxMailer(dataDir, from, logger);
}
