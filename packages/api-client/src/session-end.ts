import { isSessionEndReason, SESSION_END_STORAGE_KEY, type SessionEndReason } from '@tm/contracts';

/**
 * Why this page's session ended, carried from where the page learns it (a 401 that says why, another tab)
 * to the sign-in screen that says it (docs/PRODUCT.md §10.3): one sessionStorage entry of this tab,
 * `tm.sessionEnd`, shared by every bundle of the page (the shell's and each remote's copy of this package).
 * Only that key is touched: the rest of the tab's storage (a draft being written, say) stays.
 */

/** What the entry holds when the server gave no reason: the screen then says only that the session ended. */
const WITHOUT_REASON = 'ended';

/** What the sign-in screen is told: that the session ended, and why when that is known. */
export interface SessionEnd {
  reason?: SessionEndReason;
}

/** `value` as a reason, when it is one this version knows (a message of another tab, an answer of the server). */
export function asSessionEndReason(value: unknown): SessionEndReason | undefined {
  return isSessionEndReason(value) ? value : undefined;
}

/** Storage that refuses (private mode, a quota, a sandbox) costs the reason, never the sign-out. */
function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/** This tab's session ended, for `reason` (or for a reason the server did not give): the sign-in screen will say so. */
export function rememberSessionEnd(reason: SessionEndReason | undefined): void {
  try {
    storage()?.setItem(SESSION_END_STORAGE_KEY, reason ?? WITHOUT_REASON);
  } catch {
    // Not kept: the sign-in screen shows no banner.
  }
}

/** What the sign-in screen has to say, without forgetting it (a component reads it as it renders). */
export function peekSessionEnd(): SessionEnd | undefined {
  let value: string | null | undefined;
  try {
    value = storage()?.getItem(SESSION_END_STORAGE_KEY);
  } catch {
    return undefined;
  }
  if (value === null || value === undefined) return undefined;
  const reason = asSessionEndReason(value);
  return reason ? { reason } : {};
}

/** Said once: forgotten when the sign-in screen showed it, and at any sign-in. */
export function forgetSessionEnd(): void {
  try {
    storage()?.removeItem(SESSION_END_STORAGE_KEY);
  } catch {
    // Nothing to forget.
  }
}

/** The window event that tells a sign-in screen already showing why its session ended (`detail`: the reason). */
export const SESSION_END_EXPLAINED_EVENT = 'tm:session-end-explained';

/**
 * Why this tab's session ended, learnt after it ended without a reason: another tab's logout can reach this
 * tab after this tab's own next call was refused (a 401 that cannot say why). The sign-in screen's banner
 * says the reason instead of only "Your session has ended" (docs/PRODUCT.md §10.3).
 */
export function explainSessionEnd(reason: SessionEndReason): void {
  try {
    if (storage()?.getItem(SESSION_END_STORAGE_KEY) === WITHOUT_REASON) storage()?.setItem(SESSION_END_STORAGE_KEY, reason);
  } catch {
    // Not kept: the event below still reaches a banner on screen.
  }
  if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent<SessionEndReason>(SESSION_END_EXPLAINED_EVENT, { detail: reason }));
}
