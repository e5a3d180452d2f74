import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The local outbox of svc-users (its embedded default without SMTP_URL: each account mail one JSON file in
 * `DATA_DIR/outbox`, as nodemailer's JSON transport composes it), read the way a test reads a person's inbox.
 */
export interface OutboxMail {
  file: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
}

interface ComposedMail {
  to?: { address: string }[];
  subject?: string;
  text?: string;
  html?: string;
}

/** Every mail in `<dataDir>/outbox`, oldest first (the files are named by time). */
export function readOutbox(dataDir: string): OutboxMail[] {
  const folder = path.join(dataDir, 'outbox');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = path.join(folder, name);
      const mail = JSON.parse(readFileSync(file, 'utf8')) as ComposedMail;
      return { file, to: (mail.to ?? []).map(({ address }) => address), subject: mail.subject ?? '', text: mail.text ?? '', ...(mail.html ? { html: mail.html } : {}) };
    });
}

/** The mails sent to `email` so far, oldest first. */
export function mailsTo(dataDir: string, email: string): OutboxMail[] {
  return readOutbox(dataDir).filter((mail) => mail.to.includes(email));
}

/**
 * Waits (polling) until `dataDir`'s outbox holds `count` mails to `email` matching `subject`, and resolves to
 * the last of them; rejects after `timeoutMs`. The mail is sent after the request was answered.
 */
export async function waitForMail(dataDir: string, email: string, { subject = /./, count = 1, timeoutMs = 10_000 }: { subject?: RegExp; count?: number; timeoutMs?: number } = {}): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = mailsTo(dataDir, email).filter((mail) => subject.test(mail.subject));
    const mail = found[count - 1];
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail "${String(subject)}" to ${email} within ${timeoutMs} ms (found ${found.length})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The password reset link of a mail (the first http(s) URL with a `token`). */
export function resetLinkOf(mail: Pick<OutboxMail, 'text'>): URL {
  const match = /https?:\/\/\S+[?&]token=[A-Za-z0-9_-]+/.exec(mail.text);
  if (!match) throw new Error(`no reset link in: ${mail.text}`);
  return new URL(match[0]);
}
