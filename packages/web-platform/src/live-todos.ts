import { clientId, cursorAfter, openTodoStream, todosQuery, type TodoChangeEvent, type TodosResponse } from '@tm/api-client';
import { hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { setLiveSyncConnected } from './live-sync.js';
import { runningTaskSync } from './task-sync.js';

const todosKey = todosQuery().queryKey;

/** Changes kept to re-apply over a list fetched while they were already arriving (see {@link useLiveTodos}). */
const RECENT_CHANGES = 200;

const listArrived = () => true;

/**
 * A list read at `list.cursor` with one change applied: its tasks as they now are (`saved`, placed by the
 * spec's order when displayed) and without those that are gone (`removed`), its lists likewise. A change the list already
 * holds (not after its cursor) leaves it as it is.
 */
export function applyChange(list: TodosResponse, change: TodoChangeEvent): TodosResponse {
  if (!cursorAfter(change.id, list.cursor)) return list;
  const gone = new Set([...change.removed, ...change.saved.map((todo) => todo._id)]);
  // Lists (PRODUCT §10.19) change by the same event: saved ones replaced or added, deleted ones gone. Like the
  // tasks they are kept unordered here and each screen orders them (byListPlace): the order rule pulls the
  // order-key library, which every remote that follows the stream would otherwise load with its first screen.
  const listsGone = new Set([...(change.removedLists ?? []), ...(change.savedLists ?? []).map((list) => list._id)]);
  const lists = listsGone.size === 0 ? list.lists : [...list.lists.filter((entry) => !listsGone.has(entry._id)), ...(change.savedLists ?? [])];
  return { todos: [...list.todos.filter((todo) => !gone.has(todo._id)), ...change.saved], lists, cursor: change.id };
}

/**
 * Live sync of the task list (docs/PRODUCT.md §10.11.5), for every screen that shows the user's tasks (the
 * task list, Insights): they share the shell's QueryClient, so one stream keeps `['todos']` current for all. Once the list has arrived, the page follows the
 * change stream from the list's cursor and applies each change to the cached list, without fetching it:
 * - a change made by this page (its `origin` is this page's client id) is already on screen: only the
 *   list's cursor moves on;
 * - a change the list already holds (not after its cursor) is ignored; one that arrived while a fetch of the
 *   list was on its way is applied again over the fetched list when that is older;
 * - `reset` (the server no longer holds the changes since the page's position) and a stream the browser
 *   gave up on fetch the list once; the stream reopens by itself.
 * Whether the stream is connected goes to the shared QueryClient: while it is, another tab's change causes
 * no refetch here (tab sync, PRODUCT §10.8, is the fallback). The stream closes when the list is dropped
 * (sign-out) or the page goes.
 */
export function useLiveTodos(): void {
  const queryClient = useQueryClient();
  const listed = useQuery({ ...todosQuery(), select: listArrived }).data === true;

  useEffect(() => {
    if (!listed) return undefined;
    const cache = queryClient.getQueryCache();
    const list = () => queryClient.getQueryData(todosKey);
    const me = clientId();
    const todosHash = hashKey(todosKey);
    let recent: TodoChangeEvent[] = [];

    const refetch = () => void queryClient.invalidateQueries({ queryKey: todosKey });
    const stream = openTodoStream(
      {
        onChange: (change) => {
          recent = [...recent.slice(1 - RECENT_CHANGES), change];
          const applyToCache = (): void => {
            queryClient.setQueryData(todosKey, (current) => {
              if (!current || !cursorAfter(change.id, current.cursor)) return current;
              return change.origin === me ? { ...current, cursor: change.id } : applyChange(current, change);
            });
          };
          // With the device's sync engine (PRODUCT §10.4) the change goes to it, own changes included (they
          // confirm what it has sent); its list is the cache. Without one, straight to the cache.
          const engine = runningTaskSync(queryClient);
          if (engine) void engine.then((running) => (running ? running.applyRemote(change) : applyToCache()));
          else applyToCache();
        },
        onReset: () => {
          recent = [];
          refetch();
        },
        onConnectedChange: (connected) => setLiveSyncConnected(queryClient, connected),
        onGaveUp: refetch,
      },
      { after: () => list()?.cursor },
    );

    // A fetched list (not one of the page's own writes to the cache) may have been read before changes the
    // stream has delivered meanwhile: those are applied again on top of it.
    const stopReplay = cache.subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return;
      if (event.query.queryHash !== todosHash) return;
      const fetched = list();
      if (!fetched) return;
      recent = recent.filter((change) => cursorAfter(change.id, fetched.cursor));
      if (recent.length === 0) return;
      queryClient.setQueryData(todosKey, recent.reduce(applyChange, fetched));
    });

    return () => {
      stopReplay();
      stream.close();
    };
  }, [queryClient, listed]);
}
