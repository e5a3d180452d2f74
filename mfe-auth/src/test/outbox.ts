// Shared by this app's component tests: the mails svc-users keeps in its local outbox (no SMTP in the test
// stack), read as a person reads their inbox. config/jest/global-setup.js names the stack's data folder.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

function mailsTo(email: string): Mail[] {
  const dataDir = process.env.WEB_TEST_DATA_DIR;
  if (!dataDir) throw new Error('WEB_TEST_DATA_DIR is not set: the jest global setup names the test stack\'s data folder');
  const folder = path.join(dataDir, 'outbox');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as { to: { address: string }[]; subject: string; text: string })
    .map((mail) => ({ to: mail.to.map(({ address }) => address), subject: mail.subject, text: mail.text }))
    .filter((mail) => mail.to.includes(email));
}

/** The link of the `count`-th reset mail to `email`, once it is there (the mail is sent after the answer). */
export async function resetLinkFor(email: string, count = 1): Promise<URL> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = mailsTo(email).filter((sent) => sent.subject.startsWith('Reset your'))[count - 1];
    const link = mail ? /https?:\/\/\S+[?&]token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0] : undefined;
    if (link) return new URL(link);
    if (Date.now() > deadline) throw new Error(`no reset mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every mail to `email` so far. */
export function outboxFor(email: string): Mail[] {
  return mailsTo(email);
}
