import type { AccountMail } from './account-mail.js';

/**
 * Sends the account's mails (reset links and notices, docs/PRODUCT.md §10.10). The service knows only this;
 * nodemailer-mailer.ts sends over SMTP (SMTP_URL) or keeps the mail in the local outbox.
 */
export interface Mailer {
  /** Resolves once the mail is handed over (to the SMTP server, or written to the outbox); rejects otherwise. */
  send(mail: AccountMail): Promise<void>;
  /** Closes the transport's connections (at shutdown). */
  close(): void;
}
