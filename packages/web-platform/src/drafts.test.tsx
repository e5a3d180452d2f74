import { currentUserQuery, logout, type PublicUser } from '@tm/api-client';
import { render } from '@testing-library/react';
import { signUpNewUser } from '@tm/web-test-support';
import { DRAFT_MAX_AGE_MS, forgetDrafts, hasDraft, keepDraft, keepOnlyDraftsOf, readDraft } from './drafts';
import { PlatformProviders } from './platform-providers';
import { createQueryClient } from './query-client';

/** The draft keys this tab holds (texts and their times). */
const draftKeys = () => Object.keys(sessionStorage).filter((key) => key.startsWith('tm.draft.'));
/** The keys of the drafts' texts only. */
const textKeys = () => draftKeys().filter((key) => !key.endsWith('#savedAt'));

const ADA = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const BOB = 'bbbbbbbbbbbbbbbbbbbbbbbb';

describe('drafts', () => {
  afterEach(() => {
    jest.useRealTimers();
    sessionStorage.clear();
  });

  it('keeps a draft per person and name, and hands it back to that person only', () => {
    keepDraft(ADA, 'new-task', 'Buy oat milk');
    expect(readDraft(ADA, 'new-task')).toBe('Buy oat milk');
    expect(readDraft(BOB, 'new-task')).toBe('');
    expect(readDraft(undefined, 'new-task')).toBe('');
    expect(readDraft(ADA, 'other')).toBe('');
    keepDraft(ADA, 'new-task', '');
    expect(draftKeys()).toEqual([]);
  });

  it('removes a draft older than a day instead of handing it back', () => {
    jest.useFakeTimers({ now: new Date('2026-11-01T09:00:00Z') });
    keepDraft(ADA, 'new-task', 'Written yesterday morning');
    jest.setSystemTime(Date.now() + DRAFT_MAX_AGE_MS - 1000);
    expect(readDraft(ADA, 'new-task')).toBe('Written yesterday morning');
    jest.setSystemTime(Date.now() + 2000);
    expect(hasDraft(ADA)).toBe(false);
    expect(readDraft(ADA, 'new-task')).toBe('');
    expect(draftKeys()).toEqual([]);
  });

  it('says whether a person has text of their own being written (not blank, not someone else’s)', () => {
    expect(hasDraft(ADA)).toBe(false);
    keepDraft(BOB, 'new-task', 'Bob’s words');
    expect(hasDraft(ADA)).toBe(false);
    keepDraft(ADA, 'new-task', '   ');
    expect(hasDraft(ADA)).toBe(false);
    keepDraft(ADA, 'new-task', 'Half-written');
    expect(hasDraft(ADA)).toBe(true);
    expect(hasDraft(undefined)).toBe(false);
  });

  it('keeps the text plain (what every version of the pages reads), and its time beside it', () => {
    jest.useFakeTimers({ now: new Date('2026-11-01T09:00:00Z') });
    keepDraft(ADA, 'new-task', 'Plain words');
    expect(sessionStorage.getItem(`tm.draft.${ADA}.new-task`)).toBe('Plain words');
    expect(sessionStorage.getItem(`tm.draft.${ADA}.new-task#savedAt`)).toBe(String(Date.now()));
  });

  it('counts the day of a draft kept without a time (by a page of an earlier version) from when it is first seen', () => {
    jest.useFakeTimers({ now: new Date('2026-11-01T09:00:00Z') });
    sessionStorage.setItem(`tm.draft.${ADA}.new-task`, 'From an earlier page');
    expect(hasDraft(ADA)).toBe(true);
    jest.setSystemTime(Date.now() + DRAFT_MAX_AGE_MS - 1000);
    expect(readDraft(ADA, 'new-task')).toBe('From an earlier page');
    jest.setSystemTime(Date.now() + 2000);
    expect(readDraft(ADA, 'new-task')).toBe('');
    expect(draftKeys()).toEqual([]);
  });

  it('keeps only the drafts of one person, and only those not expired', () => {
    keepDraft(ADA, 'new-task', 'Ada’s');
    keepDraft(ADA, 'edit', 'Ada’s edit');
    keepDraft(BOB, 'new-task', 'Bob’s');
    sessionStorage.setItem(`tm.draft.${ADA}.stale`, 'old');
    sessionStorage.setItem(`tm.draft.${ADA}.stale#savedAt`, String(Date.now() - DRAFT_MAX_AGE_MS - 1));
    sessionStorage.setItem(`tm.draft.${BOB}.gone#savedAt`, String(Date.now()));
    sessionStorage.setItem('not-a-draft', 'kept');
    keepOnlyDraftsOf(ADA);
    expect(draftKeys().sort()).toEqual([`tm.draft.${ADA}.edit`, `tm.draft.${ADA}.edit#savedAt`, `tm.draft.${ADA}.new-task`, `tm.draft.${ADA}.new-task#savedAt`]);
    expect(sessionStorage.getItem('not-a-draft')).toBe('kept');
    forgetDrafts();
    expect(draftKeys()).toEqual([]);
    expect(sessionStorage.getItem('not-a-draft')).toBe('kept');
  });
});

describe('drafts when someone else signs in in the tab', () => {
  afterEach(() => sessionStorage.clear());

  it('removes every draft of anyone else as soon as the page learns who is signed in, before their screen reads any', async () => {
    await logout().catch(() => undefined);
    const queryClient = createQueryClient();
    render(
      <PlatformProviders queryClient={queryClient}>
        <p>page</p>
      </PlatformProviders>,
    );
    // Ada's session ended elsewhere: her draft is kept in the tab for her (PRODUCT §10.3).
    keepDraft(ADA, 'new-task', 'Ada’s half-written task');
    // Bob signs up in the same tab (the real gateway): the page's current-user check answers with him.
    const bob = await signUpNewUser('Bob in the same tab');
    keepDraft(bob._id, 'new-task', 'Bob’s own');
    const me = await queryClient.query(currentUserQuery());
    expect(me?._id).toBe(bob._id);
    expect(textKeys()).toEqual([`tm.draft.${bob._id}.new-task`]);
    expect(readDraft(bob._id, 'new-task')).toBe('Bob’s own');
    queryClient.clear();
  });

  it('removes them also when the person is already known as the page starts', async () => {
    const queryClient = createQueryClient();
    const bob: PublicUser = { _id: BOB, fullName: 'Bob', email: 'bob@example.com' };
    queryClient.setQueryData(currentUserQuery().queryKey, bob);
    keepDraft(ADA, 'new-task', 'Ada’s');
    render(
      <PlatformProviders queryClient={queryClient}>
        <p>page</p>
      </PlatformProviders>,
    );
    expect(draftKeys()).toEqual([]);
    queryClient.clear();
  });
});
