import { asSessionEndReason, forgetSessionEnd, peekSessionEnd, SESSION_END_EXPLAINED_EVENT, type SessionEnd, type SessionEndReason } from '@tm/api-client';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';

/** What the sign-in screen says when the session ended and the server did not say why (docs/PRODUCT.md §10.3). */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';

/**
 * Why the session ended, in plain words (PRODUCT §10.3). The idle and absolute periods are the
 * product's (PRODUCT §10.10, SECURITY.md "Sessions": 7 days unused, 30 days after sign-in).
 */
export const SESSION_END_MESSAGES: Record<SessionEndReason, string> = {
  'signed-out': 'You signed out in another tab.',
  'password-changed': 'Your password was changed on another device. Sign in with the new password.',
  'signed-out-everywhere': 'You were signed out everywhere.',
  'account-deleted': 'Your account was deleted, with all its tasks.',
  'idle-timeout': 'You were signed out after 7 days without activity.',
  'absolute-timeout': 'Your session reached its time limit of 30 days. Please sign in again.',
};

/** What the notice says for `ended`. */
export function sessionEndMessage({ reason }: SessionEnd): string {
  return reason ? SESSION_END_MESSAGES[reason] : SESSION_ENDED_MESSAGE;
}

/**
 * The banner of the sign-in screen after a session ended: why, in a banner that stays while the
 * screen is shown (not a toast that goes), announced to screen readers as it appears (role=alert: it comes with the screen, where a polite region is
 * often not read). It is
 * read once, as the screen opens (the platform leaves it in this tab's sessionStorage: a 401 that said why,
 * another tab, the current-user check), and is gone once someone signs in. After a deleted account it offers
 * to create one instead of asking to sign in.
 */
export function SessionEndNotice() {
  const [ended, setEnded] = useState(peekSessionEnd);
  // Said once: a reload of the sign-in screen, or coming back to it, does not say it again.
  useEffect(() => forgetSessionEnd(), []);
  // A reason learnt after the screen opened (another tab's logout arriving after this tab's own refused
  // call) replaces "Your session has ended"; a reason already shown stays.
  useEffect(() => {
    const explained = (event: Event) => {
      const reason = asSessionEndReason((event as CustomEvent<unknown>).detail);
      if (reason) setEnded((shown) => (shown && !shown.reason ? { reason } : shown));
      forgetSessionEnd();
    };
    window.addEventListener(SESSION_END_EXPLAINED_EVENT, explained);
    return () => window.removeEventListener(SESSION_END_EXPLAINED_EVENT, explained);
  }, []);
  if (!ended) return null;
  return (
    <div className="auth-form__notice" role="alert">
      <p className="auth-form__notice-text">{sessionEndMessage(ended)}</p>
      {ended.reason === 'account-deleted' && (
        <p className="auth-form__notice-text">
          <Link to="/signup">Create a new account</Link>
        </p>
      )}
    </div>
  );
}
