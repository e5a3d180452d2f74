import { describeError, errorMessage, http, isSessionEnded, logFailure, newIdempotencyKey, updateTodo, type Todo } from '@tm/api-client';
import {
  byListPlace,
  IDEMPOTENCY_KEY_HEADER,
  INBOX_ID,
  ROUTES,
  UPDATE_MESSAGES,
  type CreateListRequest,
  type DeleteListResponse,
  type ListPatch,
  type ListResponse,
  type TaskList,
  type TodosResponse,
  type UpdateTodoResponse,
} from '@tm/contracts';
import { notifyError, notifySuccess, syncedTodosQuery } from '@tm/web-platform';
import { offerUndo } from '@tm/web-platform/undo';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { todosKey, updateCachedTodos } from '../api/get-todos';
import { isQueued, writeTask } from '../api/task-writes';
import { useRestoreBulk } from '../api/restore-bulk';
import { QUEUED_UNDO_PREFIX } from '../api/update-todo';

/**
 * Lists on the page (docs/PRODUCT.md §10.19): read with the tasks (one query, one cursor), and written as every
 * task write is (§10.4): through the device's sync engine, kept in its outbox and shown at once (a new list
 * under a temporary id), or, where the device keeps nothing, as a call of its own whose answer goes into the
 * cached list.
 */

const EMPTY: TaskList[] = [];
// In the person's order (§10.19): a list moved, made or restored here lands in the cache out of place until the next read.
const selectLists = (list: TodosResponse): TaskList[] => (list.lists ? [...list.lists].sort(byListPlace) : EMPTY);

/** The person's lists, archived ones too, in their order; empty until the task list has arrived. */
export function useLists(): { lists: TaskList[]; loaded: boolean } {
  const queryClient = useQueryClient();
  const query = useQuery({ ...syncedTodosQuery(queryClient), select: selectLists });
  return { lists: query.data ?? EMPTY, loaded: query.data !== undefined };
}

/** The list `listId` names, the Inbox (`null` list), or undefined when there is no such list. */
export function useListNamed(listId: string | null): TaskList | null | undefined {
  const { lists } = useLists();
  return useMemo(() => (listId === null || listId === INBOX_ID ? null : lists.find((list) => list._id === listId)), [lists, listId]);
}

/** A write of a list route made alone (no device engine), with its Idempotency-Key as every task write (PRODUCT §7). */
async function callAlone<T>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await http.request<T>({ method, url: path, data: body, headers: { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() } });
  return answer.data;
}

/** The route's path with its `:listId`, as the API client's base takes it (`/todo/lists/…`). */
const listPath = (path: string, listId?: string) => (listId === undefined ? path : path.replace(':listId', encodeURIComponent(listId)));

/** Changes the cached lists (nothing while no list is cached). */
function updateCachedLists(queryClient: QueryClient, change: (lists: TaskList[]) => TaskList[]): void {
  queryClient.setQueryData<TodosResponse>(todosKey, (list) => (list ? { ...list, lists: change(list.lists ?? []) } : list));
}

const upsertList = (lists: TaskList[], saved: TaskList) => [...lists.filter((list) => list._id !== saved._id), saved];

/** Words for a list write kept on the device to be sent later (it shows already). */
const KEPT = 'Saved on this device; it syncs when you are back online';

export interface ListActions {
  /** Makes a list (after the last one); resolves its id (a temporary one while it waits), or null when refused. */
  create: (request: CreateListRequest) => Promise<string | null>;
  /** Sets values of a list (rename, colour, place, archive); resolves whether it was taken. */
  update: (list: TaskList, patch: ListPatch) => Promise<boolean>;
  /** Deletes a list and its tasks, offering Undo (5 s, U) as every Undo (PRODUCT §10.11.4). */
  remove: (list: TaskList, count: number) => Promise<boolean>;
  /** Moves a task to a list, or to the Inbox (`INBOX_ID`). */
  moveTask: (todo: Todo, listId: string) => Promise<boolean>;
}

/** What a refused list write says: the server's words (a name taken, too many lists), or why it failed. */
function refused(error: unknown, what: string): void {
  logFailure(what, error);
  if (isSessionEnded(error)) return;
  notifyError(errorMessage(error, describeError(error, `${what}. Please try again.`)));
}

/** The list writes of the page (docs/PRODUCT.md §10.19), each with its message and, for a delete, Undo. */
export function useListActions(): ListActions {
  const queryClient = useQueryClient();
  // The promise form: it settles even when the menu that offered the Undo has closed since (a per-call
  // callback of `mutate` would not run once that component is gone); failures are told by the hook itself.
  const { mutateAsync: restore } = useRestoreBulk();
  return useMemo<ListActions>(() => {
    const create: ListActions['create'] = async (request) => {
      let tempId: string | null = null;
      try {
        const answer = await writeTask<ListResponse>(
          queryClient,
          (sync) => {
            const made = sync.createListCommand(request);
            tempId = made.tempId;
            return made.command;
          },
          () => callAlone(ROUTES.createList.method, listPath(ROUTES.createList.path), request),
        );
        if (isQueued(answer)) {
          notifySuccess(KEPT);
          return tempId;
        }
        updateCachedLists(queryClient, (lists) => upsertList(lists, answer.list));
        notifySuccess(answer.message);
        return answer.list._id;
      } catch (error) {
        refused(error, 'Could not create the list');
        return null;
      }
    };
    const update: ListActions['update'] = async (list, patch) => {
      try {
        const answer = await writeTask<ListResponse>(
          queryClient,
          (sync) => sync.updateListCommand(list._id, patch),
          () => callAlone(ROUTES.updateList.method, listPath(ROUTES.updateList.path, list._id), patch),
        );
        if (isQueued(answer)) {
          notifySuccess(KEPT);
          return true;
        }
        updateCachedLists(queryClient, (lists) => upsertList(lists, answer.list));
        notifySuccess(answer.message);
        return true;
      } catch (error) {
        refused(error, 'Could not change the list');
        return false;
      }
    };
    const remove: ListActions['remove'] = async (list, count) => {
      const before = queryClient.getQueryData<TodosResponse>(todosKey);
      try {
        const answer = await writeTask<DeleteListResponse>(
          queryClient,
          (sync) => sync.deleteListCommand(list._id),
          () => callAlone(ROUTES.deleteList.method, listPath(ROUTES.deleteList.path, list._id)),
          undefined,
        );
        // Where the device keeps nothing, the list and its tasks leave the cached list with the answer.
        updateCachedLists(queryClient, (lists) => lists.filter((entry) => entry._id !== list._id));
        updateCachedTodos(queryClient, (todos) => todos.filter((todo) => todo.listId !== list._id));
        const what = `“${list.name}”`;
        if (isQueued(answer)) {
          offerUndo({ key: `undo-list:${answer.commandId}`, message: 'List deleted', what, showWhat: true, action: 'deleting', undo: () => void restore(QUEUED_UNDO_PREFIX + answer.commandId).catch(() => undefined) });
          return true;
        }
        const { message, undoToken } = answer;
        offerUndo({
          key: `undo-list:${undoToken}`,
          message,
          what,
          showWhat: true,
          action: 'deleting',
          // The answer carries the tasks; the list comes back with the next read (or its change event).
          undo: () => void restore(undoToken).then(() => queryClient.invalidateQueries({ queryKey: todosKey }), () => undefined),
        });
        return true;
      } catch (error) {
        if (before) queryClient.setQueryData(todosKey, before);
        refused(error, count > 0 ? 'Could not delete the list and its tasks' : 'Could not delete the list');
        return false;
      }
    };
    const moveTask: ListActions['moveTask'] = async (todo, listId) => {
      const target = listId === INBOX_ID ? null : listId;
      if ((todo.listId ?? null) === target) {
        notifySuccess(UPDATE_MESSAGES.already.listId);
        return false;
      }
      const previous = todo.listId;
      const place = (value: string | undefined) =>
        updateCachedTodos(queryClient, (todos) =>
          todos.map((entry) => {
            if (entry._id !== todo._id) return entry;
            const { listId: _old, ...rest } = entry;
            return value === undefined ? rest : { ...rest, listId: value };
          }),
        );
      try {
        const answer = await writeTask<UpdateTodoResponse>(
          queryClient,
          (sync) => sync.updateTaskCommand(todo, { listId: target }),
          () => updateTodo(todo._id, { listId: target }),
          // Where the device keeps nothing, the row moves at once and comes back if the server refuses.
          undefined,
        );
        if (isQueued(answer)) {
          notifySuccess(target === null ? UPDATE_MESSAGES.listId.removed : UPDATE_MESSAGES.listId.set);
          return true;
        }
        updateCachedTodos(queryClient, (todos) => todos.map((entry) => (entry._id === answer.todo._id ? answer.todo : entry)));
        notifySuccess(answer.message);
        return true;
      } catch (error) {
        place(previous);
        refused(error, 'Could not move the task');
        return false;
      }
    };
    return { create, update, remove, moveTask };
  }, [queryClient, restore]);
}

/** The address of a list's screen (`/lists/inbox` for the Inbox, `/` for all tasks). */
export function listAddress(listId: string | null): string {
  return listId === null ? '/' : `/lists/${encodeURIComponent(listId)}`;
}

