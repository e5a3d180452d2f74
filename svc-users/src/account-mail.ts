/**
 * The account's mails (docs/PRODUCT.md §10.10, SECURITY.md "Password reset"): their words, as plain
 * text and the same in simple HTML. What is sent when is account.domain.ts's rule and the service's doing.
 */

/** The link's lifetime in the words of the mail (account.domain.ts RESET_LINK_TTL_MS). */
export const RESET_LINK_LIFETIME = '30 minutes';

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
