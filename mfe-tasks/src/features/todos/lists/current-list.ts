import { INBOX_ID, INBOX_NAME, inListScope, TEMP_ID_PREFIX, type TaskList, type Todo } from '@tm/contracts';
import { resolvedId } from '@tm/web-platform';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { listAddress, useLists } from './lists-api';

/** Which tasks the screen shows (docs/PRODUCT.md §10.19): all of them (`/`), the Inbox, or one list. */
export type ListScope = { kind: 'all' } | { kind: 'inbox' } | { kind: 'list'; list: TaskList } | { kind: 'unknown'; listId: string } | { kind: 'loading'; listId: string };

/** The list id the address names (`/lists/:listId`), or null on `/`. */
export function listIdInAddress(pathname: string): string | null {
  // Read by hand: the shared router (packages/build-config/router-exports.mjs) carries no matchPath.
  const match = /^\/lists\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

/**
 * The scope the address names, once the lists have arrived (an unknown id: "This list does not exist.").
 * A list made on this device is opened under its temporary id (`/lists/tmp-…`, PRODUCT §10.19 "Offline");
 * once the server has given it its id, the address is replaced by the real one (no new history entry), so
 * it can be bookmarked, reloaded and shared with other tabs.
 */
export function useListScope(): ListScope {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { lists, loaded } = useLists();
  const inAddress = listIdInAddress(pathname);
  // Read at each render: the lists change (and this renders) when the server's answer replaces the temporary id.
  const listId = inAddress?.startsWith(TEMP_ID_PREFIX) ? resolvedId(queryClient, inAddress) : inAddress;
  useEffect(() => {
    if (listId !== null && listId !== inAddress) void navigate(`${listAddress(listId)}${search}${hash}`, { replace: true });
  }, [listId, inAddress, navigate, search, hash]);
  return useMemo<ListScope>(() => {
    if (listId === null) return { kind: 'all' };
    if (listId === INBOX_ID) return { kind: 'inbox' };
    const list = lists.find((entry) => entry._id === listId);
    if (list) return { kind: 'list', list };
    return loaded ? { kind: 'unknown', listId } : { kind: 'loading', listId };
  }, [listId, lists, loaded]);
}

/** The list id bulk actions and new tasks take in this scope: a list's id, INBOX_ID, or undefined for every task. */
export function scopeListId(scope: ListScope): string | undefined {
  if (scope.kind === 'inbox') return INBOX_ID;
  if (scope.kind === 'list') return scope.list._id;
  return undefined;
}

/** The heading of the scope: "All tasks", "Inbox" or the list's name. */
export function scopeName(scope: ListScope): string {
  if (scope.kind === 'inbox') return INBOX_NAME;
  if (scope.kind === 'list') return scope.list.name;
  return 'All tasks';
}

/**
 * The tasks of the scope: on `/` every task but those an archived list keeps out of the way (`archived`, the
 * contracts' archivedListIds; PRODUCT §10.19 "Archive"); in a list, archived or not, its own.
 */
export function tasksInScope(todos: Todo[], scope: ListScope, archived: ReadonlySet<string>): Todo[] {
  const listId = scopeListId(scope);
  if (listId === undefined && archived.size === 0) return todos;
  return todos.filter((todo) => inListScope(todo, listId, archived));
}

/** Open tasks per list id (the Inbox under INBOX_ID), for the counts of the list navigation. */
export function openCounts(todos: Todo[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const todo of todos) {
    if (todo.completed) continue;
    const key = todo.listId ?? INBOX_ID;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
