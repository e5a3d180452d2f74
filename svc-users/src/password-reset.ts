import { createHash, randomBytes } from 'node:crypto';

/**
 * The rules of a password reset link (docs/PRODUCT.md §10.10, SECURITY.md "Password reset"), without a store,
 * a clock or HTTP: the service applies them.
 */

/** How long a link works after it was sent. */
export const RESET_LINK_TTL_MS = 30 * 60 * 1000;
/** The link's lifetime in the words of the mail and the page. */
export const RESET_LINK_LIFETIME = '30 minutes';

/** The query parameter of the reset page that carries the token. */
export const RESET_TOKEN_PARAM = 'token';

/** 256 random bits, URL-safe (43 characters): the token of one link. */
export function newResetToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the store keeps of a token: its SHA-256, in hex. The token is random and long, so a fast digest is
 * enough (no password hashing): someone who reads the store cannot turn a digest back into a working link.
 */
export function resetTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The link a mail carries: the reset page (`https://app.example/reset-password`) with the token. */
export function resetLink(resetPage: string, token: string): string {
  const url = new URL(resetPage);
  url.searchParams.set(RESET_TOKEN_PARAM, token);
  return url.toString();
}

/** Whether a stored link still works at `now`: never used and not expired. */
export function resetLinkWorks(reset: { usedAt: Date | null; expiresAt: Date }, now: Date): boolean {
  return reset.usedAt === null && reset.expiresAt.getTime() > now.getTime();
}

/** A mail to one person: plain text (what every client shows) and the same in simple HTML. */
export interface AccountMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character);

/** Paragraphs as text and HTML; `link` (if any) is a paragraph of its own, a link in the HTML. */
function mail(to: string, subject: string, paragraphs: string[], link?: string): AccountMail {
  const textParts = link ? [paragraphs[0] ?? '', link, ...paragraphs.slice(1)] : paragraphs;
  const htmlParts = paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`);
  if (link) htmlParts.splice(1, 0, `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`);
  return { to, subject, text: `${textParts.join('\n\n')}\n`, html: htmlParts.join('\n') };
}

/** The mail with the link (PRODUCT §10.10). */
export function resetMail({ email, fullName }: { email: string; fullName: string }, link: string): AccountMail {
  return mail(
    email,
    'Reset your Task Manager password',
    [
      `Hello ${fullName}, someone (we hope you) asked to reset the password of your Task Manager account. Open this link to choose a new one:`,
      `The link works once, for ${RESET_LINK_LIFETIME}. Choosing a new password signs you out on every device.`,
      'If you did not ask for this, you can ignore this email: your password stays as it is.',
    ],
    link,
  );
}

/** Told to the account's address after its password was reset with a link. */
export function passwordResetNotice({ email, fullName }: { email: string; fullName: string }): AccountMail {
  return mail(email, 'Your Task Manager password was changed', [
    `Hello ${fullName}, the password of your Task Manager account was just changed with a reset link, and every device was signed out.`,
    'If this was not you, ask for a new reset link on the sign-in screen ("Forgot password?") at once.',
  ]);
}

/** Told to the old address after the account's email changed, so a change the owner did not make is noticed. */
export function emailChangedNotice({ oldEmail, newEmail, fullName }: { oldEmail: string; newEmail: string; fullName: string }): AccountMail {
  return mail(oldEmail, 'Your Task Manager email address was changed', [
    `Hello ${fullName}, the email address of your Task Manager account was changed from ${oldEmail} to ${newEmail}. Sign-in and reset links now use the new address.`,
    'If this was not you, your password may be known to someone else: write to the app\'s operators from this address.',
  ]);
}
