import { ErrorCode, type TodoChangeEvent, type TodoPatch } from '@tm/contracts';
import { NotFoundError } from '@tm/service-kit/errors';
import { isTick } from './todos.domain.js';
import type { BulkChange, FeedPosition, TodoList, TodoRecord, TodosRepository, TodoUpdate } from './todos.repository.js';

/** Message of the 404 for an unknown id and for another user's task alike (they must be indistinguishable). */
const TODO_NOT_FOUND_MESSAGE = 'Task not found';
/** Undo too late, or of a task that was never deleted (or is someone else's): docs/PRODUCT.md §10.11.4. */
const TODO_NOT_RESTORABLE_MESSAGE = 'This task can no longer be restored.';
/**
 * Undo of a bulk call that cannot (or can no longer) be done: an unknown, spent, expired or another user's
 * token, or none of its tasks left as the call left them. One answer for all: they must be indistinguishable.
 */
const TODOS_NOT_RESTORABLE_MESSAGE = 'These tasks can no longer be restored.';

function notFound(): NotFoundError {
  return new NotFoundError(TODO_NOT_FOUND_MESSAGE, ErrorCode.todoNotFound);
}

/**
 * The task use cases of one signed-in user. Inputs arrive validated (contracts); no Koa, no driver here.
 * `origin` is the writing page's client id (or null), carried back in the change event it causes. What a
 * write changes is decided by the rules (todos.domain.ts), which every store applies in the write's
 * transaction; here a call's answer becomes its HTTP error.
 */
export class TodosService {
  constructor(private readonly repository: TodosRepository) {}

  /** Pinned first, then newest first, with the user's change feed position read in the same snapshot. */
  list(userId: string): Promise<TodoList> {
    return this.repository.list(userId);
  }

  /** {@link list} as the JSON body of the answer, built by the store in one pass. */
  listJson(userId: string): Promise<string> {
    return this.repository.listJson(userId);
  }

  add(userId: string, title: string, origin: string | null = null): Promise<TodoRecord> {
    return this.repository.create(userId, title, origin);
  }

  /**
   * Sets the given title and flags; resolves the task, the fields that changed and, for a tick, its undo
   * token. Throws {@link NotFoundError} when the user has no such task. Only a tick ({@link isTick}: a patch
   * of `completed` alone, docs/PRODUCT.md §10.11.4) keeps an undo; an edit, a pin or several fields do not.
   */
  async update(userId: string, todoId: string, patch: TodoPatch, origin: string | null = null): Promise<TodoUpdate> {
    const update = await this.repository.update(userId, todoId, patch, origin, { keepUndo: isTick(patch) });
    if (!update) throw notFound();
    return update;
  }

  /** Deletes softly (restorable for a while); throws {@link NotFoundError} when the user has no such task. */
  async remove(userId: string, todoId: string, origin: string | null = null): Promise<void> {
    if (!(await this.repository.remove(userId, todoId, origin))) throw notFound();
  }

  /** Undoes a recent delete; throws a 404 `TODO.NOT_RESTORABLE` when there is nothing (left) to restore. */
  async restore(userId: string, todoId: string, origin: string | null = null): Promise<TodoRecord> {
    const todo = await this.repository.restore(userId, todoId, origin);
    if (!todo) throw new NotFoundError(TODO_NOT_RESTORABLE_MESSAGE, ErrorCode.todoNotRestorable);
    return todo;
  }

  /** Marks every task complete or active, all or nothing; resolves the tasks that changed and the undo token. */
  completeAll(userId: string, completed: boolean, origin: string | null = null): Promise<BulkChange> {
    return this.repository.setAllCompleted(userId, completed, origin);
  }

  /** Deletes every completed task, all or nothing; resolves the tasks deleted and the undo token. */
  clearCompleted(userId: string, origin: string | null = null): Promise<BulkChange> {
    return this.repository.clearCompleted(userId, origin);
  }

  /**
   * Undoes a bulk call by its token, in one transaction; resolves the tasks restored (at least one), in
   * list order. Throws a 404 `TODO.NOT_RESTORABLE` when there is nothing (left) to restore: the token is
   * unknown, spent, expired or another user's, or every task it covered was changed or deleted since.
   */
  async restoreBulk(userId: string, undoToken: string, origin: string | null = null): Promise<TodoRecord[]> {
    const restored = await this.repository.restoreBulk(userId, undoToken, origin);
    if (!restored || restored.length === 0) throw new NotFoundError(TODOS_NOT_RESTORABLE_MESSAGE, ErrorCode.todoNotRestorable);
    return restored;
  }

  /** Deletes every task of the user (their account is being deleted); resolves how many there were. */
  purge(userId: string): Promise<number> {
    return this.repository.deleteAllForUser(userId);
  }

  /** The user's changes after `afterId`, oldest first, at most `limit`. */
  changesAfter(userId: string, afterId: string, limit: number): Promise<TodoChangeEvent[]> {
    return this.repository.eventsAfter(userId, afterId, limit);
  }

  /** Where the user's own change feed stands (per-user numbers: another user's writes never move it). */
  feedPosition(userId: string): Promise<FeedPosition> {
    return this.repository.feedPosition(userId);
  }
}
