import { addTodo, currentUserQuery, fetchCurrentUser, fetchTodoList, forgetSessionEnd, peekSessionEnd, todosQuery, updateProfile, type PublicUser } from '@tm/api-client';
import { MutationObserver, QueryObserver, type QueryClient } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { cachedTodo, signUpNewUser } from '@tm/web-test-support';
import { BroadcastChannel as NodeBroadcastChannel } from 'node:worker_threads';
import { setLiveSyncConnected } from './live-sync';
import { createQueryClient } from './query-client';
import { endSession, sessionEnded } from './session';
import { TAB_CHANNEL, TODOS_REFETCH_COALESCE_MS, connectTabs, type TabMessage } from './tab-sync';

/**
 * Two QueryClients in one jsdom, each connected with connectTabs, stand for two tabs of one browser. They
 * share jsdom's cookie jar, so a refetch in "tab 2" sees the session "tab 1" made on the real gateway.
 *
 * jsdom (as jest-environment-jsdom sets it up) has no BroadcastChannel; Node's, from worker_threads, is
 * the same standard and delivers between instances of one thread, so it is installed for these tests.
 */
const jsdomHasBroadcastChannel = typeof globalThis.BroadcastChannel !== 'undefined';

const userKey = currentUserQuery().queryKey;
const todosKey = todosQuery().queryKey;
const someTodo = cachedTodo('seen before');

const settle = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function signedInUser(): Promise<PublicUser> {
  await signUpNewUser();
  const me = await fetchCurrentUser();
  if (!me) throw new Error('the signup did not sign in');
  return me;
}

describe('connectTabs without BroadcastChannel', () => {
  it('is a no-op that still returns a disconnect function (tabs then catch up on focus only)', () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'BroadcastChannel');
    delete (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel;
    try {
      expectNoOp();
    } finally {
      if (saved) Object.defineProperty(globalThis, 'BroadcastChannel', saved);
    }
  });

  function expectNoOp() {
    const tab = createQueryClient();
    const user: PublicUser = { _id: '0123456789abcdef0123456a', fullName: 'A', email: 'a@example.com' };
    tab.setQueryData(userKey, user);
    const disconnect = connectTabs(tab);
    expect(typeof disconnect).toBe('function');
    tab.setQueryData(userKey, null);
    expect(tab.getQueryData(userKey)).toBeNull();
    expect(() => disconnect()).not.toThrow();
  }
});

describe('connectTabs between two tabs', () => {
  let tab1: QueryClient;
  let tab2: QueryClient;
  /** Every message on the channel, as a third tab would see it. */
  let messages: TabMessage[];
  /** When each message reached the test's own end of the channel (ms), to tell bursts apart. */
  let arrivals: number[];
  let wire: BroadcastChannel;
  let cleanups: (() => void)[];

  beforeAll(() => {
    if (!jsdomHasBroadcastChannel) globalThis.BroadcastChannel = NodeBroadcastChannel as unknown as typeof BroadcastChannel;
  });
  afterAll(() => {
    if (!jsdomHasBroadcastChannel) delete (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel;
  });

  beforeEach(() => {
    tab1 = createQueryClient();
    tab2 = createQueryClient();
    messages = [];
    arrivals = [];
    wire = new BroadcastChannel(TAB_CHANNEL);
    wire.onmessage = (event: MessageEvent<TabMessage>) => {
      messages.push(event.data);
      arrivals.push(performance.now());
    };
    cleanups = [];
  });
  afterEach(() => {
    for (const cleanup of cleanups.reverse()) cleanup();
    wire.close();
    tab1.clear();
    tab2.clear();
    forgetSessionEnd();
  });

  function connect(...tabs: QueryClient[]): (() => void)[] {
    const disconnects = tabs.map((tab) => connectTabs(tab));
    cleanups.push(...disconnects);
    return disconnects;
  }

  it('a sign-out in tab 1 signs tab 2 out and drops its tasks; tab 2 does not echo it', async () => {
    const me = await signedInUser();
    tab1.setQueryData(userKey, me);
    tab2.setQueryData(userKey, me);
    tab2.setQueryData(todosKey, { todos: [someTodo], lists: [], cursor: '0' });
    connect(tab1, tab2);

    tab1.setQueryData(userKey, null);

    await waitFor(() => expect(tab2.getQueryData(userKey)).toBeNull());
    expect(tab2.getQueryCache().find({ queryKey: todosKey })).toBeUndefined();
    await settle(100);
    expect(messages).toEqual([{ type: 'signed-out' }]);
  });

  // Both "tabs" share jsdom's one sessionStorage here (a browser gives each tab its own): the
  // ending tab is made to end without writing it, so what is found there is what tab 2 wrote.
  it('a sign-out that knows why (a logout here: `signed-out`) tells tab 2 why, and tab 2 keeps it for its sign-in screen', async () => {
    const me = await signedInUser();
    tab1.setQueryData(userKey, me);
    tab2.setQueryData(userKey, me);
    connect(tab1, tab2);
    forgetSessionEnd();

    endSession(tab1, 'signed-out');

    await waitFor(() => expect(tab2.getQueryData(userKey)).toBeNull());
    await settle(100);
    expect(messages).toEqual([{ type: 'signed-out', reason: 'signed-out' }]);
    expect(peekSessionEnd()).toEqual({ reason: 'signed-out' });
  });

  it("a 401 that said why in tab 1 is told to tab 2 with that reason", async () => {
    const me = await signedInUser();
    tab1.setQueryData(userKey, me);
    tab2.setQueryData(userKey, me);
    tab2.setQueryData(todosKey, { todos: [someTodo], lists: [], cursor: '0' });
    connect(tab1, tab2);

    sessionEnded(tab1, 'password-changed');

    await waitFor(() => expect(tab2.getQueryData(userKey)).toBeNull());
    expect(tab2.getQueryCache().find({ queryKey: todosKey })).toBeUndefined();
    await settle(100);
    // One message (tab 2 does not echo it), with the reason.
    expect(messages).toEqual([{ type: 'signed-out', reason: 'password-changed' }]);
    expect(peekSessionEnd()).toEqual({ reason: 'password-changed' });
  });

  it('a reason this version does not know, or one told to a tab already signed out, is not kept', async () => {
    const me = await signedInUser();
    tab2.setQueryData(userKey, me);
    connect(tab2);
    forgetSessionEnd();

    wire.postMessage({ type: 'signed-out', reason: 'a reason of a later version' });
    await waitFor(() => expect(tab2.getQueryData(userKey)).toBeNull());
    expect(peekSessionEnd()).toBeUndefined();

    // Signed out already: nothing to say on its sign-in screen.
    wire.postMessage({ type: 'signed-out', reason: 'signed-out-everywhere' });
    await settle(100);
    expect(peekSessionEnd()).toBeUndefined();
  });

  it('a sign-in in tab 1 makes tab 2 drop the old tasks and check the current user again; no echo', async () => {
    tab1.setQueryData(userKey, null);
    tab2.setQueryData(userKey, null);
    tab2.setQueryData(todosKey, { todos: [someTodo], lists: [], cursor: '0' });
    connect(tab1, tab2);
    // Tab 2 shows the current user (e.g. its route guard), so an invalidation refetches it for real.
    const observer = new QueryObserver(tab2, currentUserQuery());
    cleanups.push(observer.subscribe(() => undefined));
    const invalidate = jest.spyOn(tab2, 'invalidateQueries');

    const me = await signedInUser(); // the session cookie both tabs share
    tab1.setQueryData(userKey, me);

    await waitFor(() => expect(tab2.getQueryData(userKey)).toEqual(me));
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: userKey });
    expect(tab2.getQueryCache().find({ queryKey: todosKey })).toBeUndefined();
    await settle(100);
    expect(messages).toEqual([{ type: 'signed-in' }]);
  });

  it('another user signing in (A then B) is announced as a sign-in as well', async () => {
    const a = await signedInUser();
    tab1.setQueryData(userKey, a);
    tab2.setQueryData(userKey, a);
    tab2.setQueryData(todosKey, { todos: [someTodo], lists: [], cursor: '0' });
    connect(tab1, tab2);
    const invalidate = jest.spyOn(tab2, 'invalidateQueries');

    const b = await signedInUser();
    tab1.setQueryData(userKey, b);

    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: userKey }));
    expect(tab2.getQueryCache().find({ queryKey: todosKey })).toBeUndefined();
    await settle(100);
    expect(messages).toEqual([{ type: 'signed-in' }]);
  });

  it('still announces a later sign-out after a message arrived while this tab was already signed out', async () => {
    const a = await signedInUser();
    tab1.setQueryData(userKey, a);
    tab2.setQueryData(userKey, a);
    connect(tab1, tab2);
    // Both tabs sign out on their own (each got its own 401): each hears the other while already out.
    tab1.setQueryData(userKey, null);
    tab2.setQueryData(userKey, null);
    await settle(100);
    messages.length = 0;

    // Tab 2 signs in as B (tab 1, showing the current user, follows), then signs out: tab 1 must hear it.
    const observer = new QueryObserver(tab1, currentUserQuery());
    cleanups.push(observer.subscribe(() => undefined));
    const b = await signedInUser();
    tab2.setQueryData(userKey, b);
    await waitFor(() => expect(tab1.getQueryData(userKey)).toEqual(b));
    await settle(100);
    tab2.setQueryData(userKey, null);
    await waitFor(() => expect(tab1.getQueryData(userKey)).toBeNull());
    expect(messages).toContainEqual({ type: 'signed-out' });
  });

  it('a new name or email in tab 1 (the account page) makes tab 2 check the current user again; no echo', async () => {
    const me = await signedInUser();
    tab1.setQueryData(userKey, me);
    tab2.setQueryData(userKey, me);
    connect(tab1, tab2);
    const observer = new QueryObserver(tab2, currentUserQuery());
    cleanups.push(observer.subscribe(() => undefined));

    const { user } = await updateProfile({ fullName: 'Renamed In Tab One' });
    tab1.setQueryData(userKey, user);

    await waitFor(() => expect(tab2.getQueryData(userKey)).toEqual({ ...me, fullName: 'Renamed In Tab One' }));
    await settle(100);
    expect(messages).toEqual([{ type: 'user-changed' }]);
  });

  /** An observer of tab 2's list that counts its fetches, once the first one has landed. */
  async function observeTodos(tab: QueryClient) {
    let fetches = 0;
    const observer = new QueryObserver(tab, {
      ...todosQuery(),
      queryFn: (context) => {
        fetches += 1;
        return fetchTodoList(context);
      },
    });
    cleanups.push(observer.subscribe(() => undefined));
    await waitFor(() => expect(observer.getCurrentResult().data?.todos).toEqual([]));
    expect(fetches).toBe(1);
    return { observer, fetches: () => fetches };
  }

  const add = (tab: QueryClient, title: string) => new MutationObserver(tab, { mutationKey: ['todos', 'add'], mutationFn: (title: string) => addTodo(title) }).mutate(title);

  it('a burst of 3 task changes in tab 1 refetches the list of tab 2 once, after the burst', async () => {
    await signedInUser();
    connect(tab1, tab2);
    const { observer, fetches } = await observeTodos(tab2);

    await Promise.all([add(tab1, 'one'), add(tab1, 'two'), add(tab1, 'three')]);

    await waitFor(() => expect(observer.getCurrentResult().data?.todos).toHaveLength(3));
    await settle(TODOS_REFETCH_COALESCE_MS + 150);
    expect(messages).toEqual([{ type: 'todos-changed' }, { type: 'todos-changed' }, { type: 'todos-changed' }]);
    // The three adds are real calls: on a busy machine their answers can come further apart than the
    // coalescing window, and then they are two bursts. Never more refetches than bursts, at least one.
    const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
    const bursts = 1 + gaps.filter((gap) => gap > TODOS_REFETCH_COALESCE_MS - 25).length;
    expect(fetches() - 1).toBeGreaterThanOrEqual(1);
    expect(fetches() - 1).toBeLessThanOrEqual(bursts);
  });

  it('a tab whose live stream is connected does not refetch for another tab\'s change (the stream brings it)', async () => {
    await signedInUser();
    connect(tab1, tab2);
    const { fetches } = await observeTodos(tab2);
    setLiveSyncConnected(tab2, true);

    await add(tab1, 'streamed');
    await settle(TODOS_REFETCH_COALESCE_MS + 150);
    expect(messages).toEqual([{ type: 'todos-changed' }]);
    expect(fetches()).toBe(1);

    // The stream dropped: the fallback of PRODUCT §10.8 is back.
    setLiveSyncConnected(tab2, false);
    await add(tab1, 'not streamed');
    await waitFor(() => expect(fetches()).toBe(2));
  });

  it('a failed task change, or a change that is not about tasks, tells the other tabs nothing', async () => {
    await signedInUser();
    connect(tab1, tab2);
    const invalidate = jest.spyOn(tab2, 'invalidateQueries');

    const refused = new MutationObserver(tab1, { mutationKey: ['todos', 'add'], mutationFn: (title: string) => addTodo(title) }).mutate('\u200B');
    await expect(refused).rejects.toMatchObject({ response: { status: 400 } });
    await new MutationObserver(tab1, { mutationKey: ['user', 'check'], mutationFn: () => fetchCurrentUser() }).mutate();

    await settle(TODOS_REFETCH_COALESCE_MS + 150);
    expect(messages).toEqual([]);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('after disconnecting, a tab neither follows nor announces anything', async () => {
    const me = await signedInUser();
    tab1.setQueryData(userKey, me);
    tab2.setQueryData(userKey, me);
    tab2.setQueryData(todosKey, { todos: [someTodo], lists: [], cursor: '0' });
    const [disconnect1, disconnect2] = connect(tab1, tab2);
    disconnect2!();

    tab1.setQueryData(userKey, null);
    await waitFor(() => expect(messages).toEqual([{ type: 'signed-out' }]));
    await settle(100);
    expect(tab2.getQueryData(userKey)).toEqual(me);
    expect(tab2.getQueryData(todosKey)).toEqual({ todos: [someTodo], lists: [], cursor: '0' });

    disconnect1!();
    tab1.setQueryData(userKey, me);
    await settle(100);
    expect(messages).toEqual([{ type: 'signed-out' }]);
  });
});
