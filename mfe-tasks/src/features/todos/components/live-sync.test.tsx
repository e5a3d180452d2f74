import { addTodo, clientId, deleteTodo, todosQuery, updateTodo, type Todo, type TodoChangeEvent } from '@tm/api-client';
import { endSession, isLiveSyncConnected, TAB_CHANNEL } from '@tm/web-platform';
import { FakeEventSource, renderPage, signUpNewUser } from '@tm/web-test-support';
import { act, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { BroadcastChannel as NodeBroadcastChannel } from 'node:worker_threads';
import TaskListPage from '../../../expose/task-list-page';
import { playedSources, stubAudioPlay, stubCanvas } from '../../../test/browser-stubs';
import { allRowsEntered, countFetches, shownTitles, sleep } from '../../../test/page-helpers';
import { applyChange } from '@tm/web-platform';

const todosKey = todosQuery().queryKey;
const OTHER_PAGE = 'another-page';

/** The page with its list loaded and its stream opened (and live once the server said ready). */
async function openPage(title?: string) {
  if (title) await addTodo(title);
  const page = renderPage(<TaskListPage />);
  await waitFor(() => expect(page.queryClient.getQueryData(todosKey)).toBeDefined());
  const { cursor } = page.queryClient.getQueryData(todosKey)!;
  const source = await waitFor(() => {
    const latest = FakeEventSource.latest();
    if (!latest) throw new Error('no stream yet');
    return latest;
  });
  const at = (ahead: number) => String(BigInt(cursor) + BigInt(ahead));
  // The data library tells its observers on a timer: a little wait lets the screen follow.
  const send = (change: Omit<TodoChangeEvent, 'removed' | 'saved'> & Partial<TodoChangeEvent>) =>
    act(async () => {
      source.emit('change', { saved: [], removed: [], ...change }, change.id);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  return { ...page, cursor, source, at, send };
}

function someTodo(title: string, id = 'abcdefabcdefabcdefabcdef'): Todo {
  const now = new Date().toISOString();
  return { _id: id, title, completed: false, completedAt: null, isPinned: false, createdAt: now, updatedAt: now };
}

describe('live sync (docs/PRODUCT.md §10.11.5)', () => {
  let uninstall: () => void;
  let play: jest.SpyInstance;
  beforeEach(async () => {
    toast.remove();
    uninstall = FakeEventSource.install();
    await signUpNewUser('Ada Lovelace');
    play = stubAudioPlay();
    stubCanvas();
  });
  afterEach(() => {
    uninstall();
    jest.restoreAllMocks();
  });

  it('opens the stream after the list\'s cursor and shows what other pages change at once, without fetching the list', async () => {
    const { queryClient, cursor, source, at, send } = await openPage('Already there');
    expect(cursor).toMatch(/^\d{1,16}$/);
    expect(source.url).toBe(`/api/todo/events?after=${cursor}`);
    expect(isLiveSyncConnected(queryClient)).toBe(false);
    act(() => source.emit('ready', { cursor }));
    expect(isLiveSyncConnected(queryClient)).toBe(true);
    await allRowsEntered();
    const fetches = countFetches(queryClient);

    // Added on another device: it comes in on top, at once usable, without a sound.
    const { todo: added } = await addTodo('Added on the phone');
    await send({ id: at(1), origin: OTHER_PAGE, saved: [added] });
    expect(shownTitles()).toEqual(['Added on the phone', 'Already there']);
    expect(screen.getAllByRole('listitem')[0]).not.toHaveAttribute('inert');
    expect(screen.getByText('You have 2 tasks left. Keep going!')).toBeInTheDocument();

    // Ticked elsewhere: the box follows, without sound or confetti.
    const { todo: ticked } = await updateTodo(added._id, { completed: true });
    await send({ id: at(2), origin: OTHER_PAGE, saved: [ticked] });
    expect(screen.getByRole('checkbox', { name: 'Mark “Added on the phone” as not completed' })).toBeChecked();

    // Deleted elsewhere: the row leaves.
    await deleteTodo(added._id);
    await send({ id: at(3), origin: null, removed: [added._id] });
    await waitFor(() => expect(shownTitles()).toEqual(['Already there']));

    await sleep(300);
    expect(fetches()).toBe(0);
    expect(playedSources(play)).toEqual([]);
    expect(document.querySelector('.tasks-confetti')).toBeNull();
    expect(queryClient.getQueryData(todosKey)?.cursor).toBe(at(3));
  });

  it('skips the echo of its own changes, and changes the list already holds', async () => {
    const { queryClient, cursor, source, at, send } = await openPage('Mine');
    act(() => source.emit('ready', { cursor }));
    await allRowsEntered();
    const fetches = countFetches(queryClient);

    // This page's own change comes back with its client id as origin: it is on screen already.
    await send({ id: at(1), origin: clientId(), saved: [someTodo('My own echo')] });
    expect(screen.queryByText('My own echo')).not.toBeInTheDocument();
    expect(queryClient.getQueryData(todosKey)?.cursor).toBe(at(1));

    // Not after the list's position: the list already holds it.
    await send({ id: at(1), origin: OTHER_PAGE, saved: [someTodo('Stale')] });
    await send({ id: cursor, origin: OTHER_PAGE, saved: [someTodo('Older still')] });
    expect(screen.queryByText('Stale')).not.toBeInTheDocument();
    expect(screen.queryByText('Older still')).not.toBeInTheDocument();

    await send({ id: at(5), origin: OTHER_PAGE, saved: [someTodo('Newer', 'abcdefabcdefabcdefabcde1')] });
    expect(screen.getByText('Newer')).toBeInTheDocument();
    await send({ id: at(4), origin: OTHER_PAGE, saved: [someTodo('Renamed before', 'abcdefabcdefabcdefabcde1')] });
    expect(screen.getByText('Newer')).toBeInTheDocument();
    expect(screen.queryByText('Renamed before')).not.toBeInTheDocument();
    expect(fetches()).toBe(0);
  });

  it('fetches the list once on reset, and when the browser gives up on the stream (then opens it again)', async () => {
    const { queryClient, cursor, source } = await openPage('Reset me');
    act(() => source.emit('ready', { cursor }));
    const fetches = countFetches(queryClient);

    act(() => source.emit('reset', { cursor: String(BigInt(cursor) + 100n) }));
    await waitFor(() => expect(fetches()).toBe(1));
    await sleep(300);
    expect(fetches()).toBe(1);
    expect(isLiveSyncConnected(queryClient)).toBe(true);

    act(() => source.refuse());
    expect(isLiveSyncConnected(queryClient)).toBe(false);
    await waitFor(() => expect(fetches()).toBe(2));
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2), { timeout: 2000 });
    const reopened = FakeEventSource.latest()!;
    // After the reset's position (here ahead of the list fetched since), never the gap before it (PRODUCT §10.11.5).
    expect(reopened.url).toBe(`/api/todo/events?after=${String(BigInt(cursor) + 100n)}`);
    act(() => reopened.emit('ready', { cursor }));
    expect(isLiveSyncConnected(queryClient)).toBe(true);
  });

  it('re-applies a change that arrived while a fetch of the list was on its way', async () => {
    const { queryClient, at, cursor, source, send } = await openPage('Before');
    act(() => source.emit('ready', { cursor }));
    // A list read before the change (its cursor) lands after the change was applied.
    await send({ id: at(1), origin: OTHER_PAGE, saved: [someTodo('Streamed meanwhile')] });
    expect(screen.getByText('Streamed meanwhile')).toBeInTheDocument();
    await act(() => queryClient.refetchQueries({ queryKey: todosKey }));
    expect(screen.getByText('Streamed meanwhile')).toBeInTheDocument();
    expect(shownTitles()).toEqual(['Streamed meanwhile', 'Before']);
  });

  describe('with tabs that talk (BroadcastChannel)', () => {
    const jsdomHasBroadcastChannel = typeof globalThis.BroadcastChannel !== 'undefined';
    beforeAll(() => {
      if (!jsdomHasBroadcastChannel) globalThis.BroadcastChannel = NodeBroadcastChannel as unknown as typeof BroadcastChannel;
    });
    afterAll(() => {
      if (!jsdomHasBroadcastChannel) delete (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel;
    });

    it('does not refetch for another tab\'s change while the stream is live; falls back to one refetch when it is not', async () => {
      const { queryClient, cursor, source } = await openPage('Two tabs');
      const otherTab = new BroadcastChannel(TAB_CHANNEL);
      try {
        act(() => source.emit('ready', { cursor }));
        const fetches = countFetches(queryClient);
        otherTab.postMessage({ type: 'todos-changed' });
        await sleep(500);
        expect(fetches()).toBe(0);

        act(() => source.drop()); // the browser reconnects; until then, tab sync is the way
        otherTab.postMessage({ type: 'todos-changed' });
        await waitFor(() => expect(fetches()).toBe(1));
      } finally {
        otherTab.close();
      }
    });
  });

  it('closes the stream when the page goes, and when the session ends', async () => {
    const first = await openPage('Closing');
    act(() => first.source.emit('ready', { cursor: first.cursor }));
    first.unmount();
    expect(first.source.closed).toBe(true);
    expect(isLiveSyncConnected(first.queryClient)).toBe(false);

    const second = await openPage();
    act(() => second.source.emit('ready', { cursor: second.cursor }));
    act(() => endSession(second.queryClient));
    await waitFor(() => expect(second.source.closed).toBe(true));
    expect(isLiveSyncConnected(second.queryClient)).toBe(false);
  });
});

describe('applyChange', () => {
  const list = { todos: [someTodo('a', 'aaaaaaaaaaaaaaaaaaaaaaaa'), someTodo('b', 'bbbbbbbbbbbbbbbbbbbbbbbb')], lists: [], cursor: '10' };

  it('puts saved tasks in (replacing those with the same id), takes removed ones out, and moves the cursor', () => {
    const changed = applyChange(list, { id: '11', origin: null, saved: [someTodo('a2', 'aaaaaaaaaaaaaaaaaaaaaaaa'), someTodo('c', 'cccccccccccccccccccccccc')], removed: ['bbbbbbbbbbbbbbbbbbbbbbbb'] });
    expect(changed.todos.map((todo) => todo.title)).toEqual(['a2', 'c']);
    expect(changed.cursor).toBe('11');
  });

  it('leaves the list as it is for a change it already holds', () => {
    expect(applyChange(list, { id: '10', origin: null, saved: [], removed: ['aaaaaaaaaaaaaaaaaaaaaaaa'] })).toBe(list);
    expect(applyChange(list, { id: '9', origin: null, saved: [someTodo('old')], removed: [] })).toBe(list);
  });
});
