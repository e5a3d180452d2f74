// Shared queries of the task page's component tests.
import { todosQuery } from '@tm/api-client';
import type { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { useLocation, useNavigate } from 'react-router-dom';
import { signUpNewUser } from '@tm/web-test-support';
import toast from 'react-hot-toast';
import { SMALL_SCREEN_QUERY } from '../features/todos/constants';
import { restoreMatchMedia, stubAudioPlay, stubCanvas, stubDialog, stubMatchMedia } from './browser-stubs';

export const sleep = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

/** The row (list item) of the task with this title. */
export function rowOf(title: string): HTMLElement {
  const row = screen.getByText(title, { selector: '.tasks-item__title' }).closest('li');
  if (!row) throw new Error(`no row for ${title}`);
  return row;
}

/** The task titles shown, top to bottom (a title being edited: the text in its field). */
export const shownTitles = () =>
  screen.queryAllByRole('listitem').map((row) => row.querySelector('.tasks-item__title')?.textContent ?? row.querySelector('textarea')?.value ?? row.textContent);

/** The toasts (react-hot-toast renders each as a status, an error one as an alert) whose text is `message`. */
export const toastsSaying = (message: string) =>
  [...screen.queryAllByRole('status'), ...screen.queryAllByRole('alert')].filter((toast) => toast.closest('[data-rht-toaster]') && toast.textContent === message);

/** Rows of the first load fade in one after another: wait until all of them are fully there. */
export const allRowsEntered = () =>
  waitFor(() => screen.getAllByRole('listitem').forEach((row) => expect(row.style.opacity === '' || row.style.opacity === '1').toBe(true)), { timeout: 3000 });

/** The Undo toasts of deletes (the server's "Task deleted successfully", the task's title, and "Undo"). */
export const undoToasts = () =>
  screen
    .queryAllByRole('status')
    .filter((toast) => toast.textContent?.startsWith('Task deleted successfully') && within(toast).queryByRole('button', { name: /^Undo deleting/ }));

/** The Undo toasts of ticks (the server's "Task completed" or "Task marked active", the task's title, and "Undo"). */
export const tickToasts = (message: 'Task completed' | 'Task marked active' = 'Task completed') =>
  screen
    .queryAllByRole('status')
    .filter((toast) => toast.textContent?.startsWith(message) && within(toast).queryByRole('button', { name: /^Undo (completing|marking active) “/ }));

/** Shows where the router is (path and query) and offers Back, for tests of state kept in the address. */
export function RouterProbe() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <div>
      <span data-testid="address">{location.pathname + location.search}</span>
      <button type="button" onClick={() => void navigate(-1)}>
        Browser back
      </button>
    </div>
  );
}

export const address = () => screen.getByTestId('address').textContent;

/** Counts the fetches of the task list from now on. */
export function countFetches(queryClient: QueryClient): () => number {
  const listHash = JSON.stringify(todosQuery().queryKey);
  let fetches = 0;
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'fetch' && event.query.queryHash === listHash) fetches += 1;
  });
  return () => fetches;
}

/**
 * For each test of the block: a newly signed-up person on a small screen (the row actions in a menu,
 * docs/PRODUCT.md §2), no toasts left from another test, sounds and <dialog> stubbed.
 */
export function onASmallScreenWithDialogs(): void {
  let restoreDialog: () => void = () => undefined;
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    stubAudioPlay();
    stubMatchMedia([SMALL_SCREEN_QUERY]);
    restoreDialog = stubDialog();
  });
  afterEach(() => {
    restoreDialog();
    restoreMatchMedia();
    jest.restoreAllMocks();
  });
}

/**
 * Each test of the block starts signed in as a new user with no toast left, the sounds and the confetti's canvas
 * stubbed (jsdom has neither), and its mocks restored after it.
 */
export function signedInWithCelebrationStubs(): void {
  beforeEach(async () => {
    toast.remove();
    await signUpNewUser('Ada Lovelace');
    stubAudioPlay();
    stubCanvas();
  });
  afterEach(() => jest.restoreAllMocks());
}
