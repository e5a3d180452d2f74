/**
 * Text a person is writing, kept for this tab (sessionStorage) under their user id (issue #18): a session
 * that ends elsewhere (password changed, signed out everywhere, expired) sends the page to the sign-in
 * screen, and the same person finds the text again after signing back in. Only the same user gets it back;
 * an end made on this page on purpose (logout, "Sign out everywhere", account deletion) removes every draft
 * of the tab; the tab's end drops them. Storage that refuses (privacy mode, quota) keeps nothing.
 */
const PREFIX = 'tm.draft.';

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/** The draft `name` (e.g. `new-task`) of this user, or '' when there is none. */
export function readDraft(userId: string | undefined, name: string): string {
  if (!userId) return '';
  try {
    return storage()?.getItem(`${PREFIX}${userId}.${name}`) ?? '';
  } catch {
    return '';
  }
}

/** Keeps `text` as the draft `name` of this user ('' removes it). */
export function keepDraft(userId: string | undefined, name: string, text: string): void {
  if (!userId) return;
  try {
    if (text === '') storage()?.removeItem(`${PREFIX}${userId}.${name}`);
    else storage()?.setItem(`${PREFIX}${userId}.${name}`, text);
  } catch {
    // Full or refused: the draft is simply not kept.
  }
}

/** Removes every draft of this tab (a session ended here on purpose). */
export function forgetDrafts(): void {
  const kept = storage();
  if (!kept) return;
  try {
    for (const key of Object.keys(kept)) if (key.startsWith(PREFIX)) kept.removeItem(key);
  } catch {
    // Nothing to remove.
  }
}
