import { currentUserQuery, type PublicUser } from '@tm/api-client';
import { hashKey, type QueryClient } from '@tanstack/react-query';

/**
 * Text a person is writing, kept for this tab (sessionStorage) under their user id (PRODUCT §10.3, SECURITY.md
 * "What is kept on the device"): a session that ends elsewhere (password changed, signed out everywhere,
 * expired) sends the page to the sign-in screen, and the same person finds the text again after signing
 * back in. Only that person ever gets it back:
 * - when anyone else signs in in this tab (or the page finds someone else signed in), every draft that is
 *   not theirs is removed before their screen reads any ({@link keepDraftsOfSignedInUser});
 * - a draft is kept for {@link DRAFT_MAX_AGE_MS} at most: an older one is removed, not handed back;
 * - an end made on this page on purpose (logout, "Sign out everywhere", account deletion) removes every
 *   draft of the tab, and the tab's end drops them.
 * Storage that refuses (privacy mode, quota) keeps nothing.
 */
const PREFIX = 'tm.draft.';
/**
 * When a draft was last written, beside it (`tm.draft.<user>.<name>#savedAt`, ms since 1970). The text stays
 * plain under its own key, as every version of the pages reads and writes it; one kept by a page that wrote
 * no time counts from when it is first seen.
 */
const SAVED_AT = '#savedAt';

/** A draft older than a day is no longer the text of the moment: it is removed, not handed back. */
export const DRAFT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Runs `use` on the tab's storage, or answers `otherwise` where storage refuses (privacy mode, quota). */
function withStorage<T>(use: (kept: Storage) => T, otherwise: T): T {
  try {
    return typeof sessionStorage === 'undefined' ? otherwise : use(sessionStorage);
  } catch {
    return otherwise;
  }
}

function remove(kept: Storage, key: string): void {
  kept.removeItem(key);
  kept.removeItem(key + SAVED_AT);
}

/** The text of the draft under `key`, or undefined when there is none; one out of date is removed. */
function textOf(kept: Storage, key: string): string | undefined {
  const text = kept.getItem(key);
  if (text === null) return undefined;
  const savedAt = Number(kept.getItem(key + SAVED_AT));
  if (!(savedAt > 0)) kept.setItem(key + SAVED_AT, String(Date.now()));
  else if (Math.abs(Date.now() - savedAt) > DRAFT_MAX_AGE_MS) {
    remove(kept, key);
    return undefined;
  }
  return text;
}

/** The keys of this tab's drafts' texts (not their times). */
const draftKeys = (kept: Storage) => Object.keys(kept).filter((key) => key.startsWith(PREFIX) && !key.endsWith(SAVED_AT));
const ownPrefix = (userId: string) => `${PREFIX}${userId}.`;

/** The draft `name` (e.g. `new-task`) of this user, or '' when there is none (one out of date is removed). */
export function readDraft(userId: string | undefined, name: string): string {
  if (!userId) return '';
  return withStorage((kept) => textOf(kept, ownPrefix(userId) + name) ?? '', '');
}

/** Keeps `text` as the draft `name` of this user ('' removes it). A full or refused storage keeps nothing. */
export function keepDraft(userId: string | undefined, name: string, text: string): void {
  if (!userId) return;
  withStorage((kept) => {
    const key = ownPrefix(userId) + name;
    if (text === '') return remove(kept, key);
    kept.setItem(key, text);
    kept.setItem(key + SAVED_AT, String(Date.now()));
  }, undefined);
}

/** Whether this user has text of their own being written in this tab (a logout would lose it: the header asks first). */
export function hasDraft(userId: string | undefined): boolean {
  if (!userId) return false;
  return withStorage((kept) => draftKeys(kept).some((key) => key.startsWith(ownPrefix(userId)) && Boolean(textOf(kept, key)?.trim())), false);
}

/** Removes every draft of this tab but those `keep` names, and every one out of date (and any time left alone). */
function removeDraftsBut(keep: (key: string) => boolean): void {
  withStorage((kept) => {
    for (const key of draftKeys(kept)) if (!keep(key) || textOf(kept, key) === undefined) remove(kept, key);
    for (const key of Object.keys(kept)) if (key.startsWith(PREFIX) && key.endsWith(SAVED_AT) && kept.getItem(key.slice(0, -SAVED_AT.length)) === null) kept.removeItem(key);
  }, undefined);
}

/** Removes every draft of this tab that is not this user's, and every one out of date. */
export function keepOnlyDraftsOf(userId: string): void {
  removeDraftsBut((key) => key.startsWith(ownPrefix(userId)));
}

/** Removes every draft of this tab (a session ended here on purpose). */
export function forgetDrafts(): void {
  removeDraftsBut(() => false);
}

/**
 * Whenever the page learns who is signed in (the first check, a sign-in, a sign-up, another tab's), every
 * draft of anyone else is removed at once, before that person's screens can read the tab's storage for
 * theirs. Returns the function that stops watching.
 */
export function keepDraftsOfSignedInUser(queryClient: QueryClient): () => void {
  const userKey = currentUserQuery().queryKey;
  const userHash = hashKey(userKey);
  const follow = (user: PublicUser | null | undefined) => {
    if (user?._id) keepOnlyDraftsOf(user._id);
  };
  follow(queryClient.getQueryData<PublicUser | null>(userKey));
  return queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.query.queryHash === userHash) follow(event.query.state.data as PublicUser | null | undefined);
  });
}
