import { addDays, agendaOf, archivedListIds, ErrorCode, outsideArchivedLists, type AgendaResponse, type ChangesResponse, type HistoryEntry, type TodoChangeEvent } from '@tm/contracts';
import { HttpError } from '@tm/service-kit/errors';
import { catchUp, type IdempotencyRecord, type IdempotentRequest, type StoredAnswer } from './todos.domain.js';
import type { FeedPosition, ResultOf, TodoList, TodoRecord, TodosRepository, TodoWrite, TodoWriteResults } from './todos.repository.js';

/**
 * The user's open tasks due before `before` (a day) that are on their days: those outside an archived list
 * (docs/PRODUCT.md §10.19 "Archive"). What Today and Upcoming (§10.15) and the calendar feed (§10.18) are made of.
 */
export async function openDueOnTheirDays(repository: TodosRepository, userId: string, before: string): Promise<TodoRecord[]> {
  const [open, lists] = await Promise.all([repository.openDueBefore(userId, before), repository.listsOf(userId)]);
  return outsideArchivedLists(open, archivedListIds(lists));
}

/** Message of the 422 for an `Idempotency-Key` sent before with another request (docs/PRODUCT.md §7). */
export const IDEMPOTENCY_KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used for a different request. Send a new key for each new action.';

/**
 * The task use cases of one signed-in user. Inputs arrive validated (contracts); no Koa, no driver here.
 * `origin` is the writing page's client id (or null), carried back in the change event it causes. What a
 * write changes is decided by the rules (todos.domain.ts), which every store applies in the write's
 * transaction; a write's answer (status and body) is made by the caller's `answer`, from the write's result.
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

  /**
   * Today and Upcoming (docs/PRODUCT.md §10.15) for the person's `today` and the `days` from it: the store
   * reads the open tasks due before the agenda's end and the lists, and the contracts' `agendaOf`, the rule the
   * Today screen draws with too, sorts those outside an archived list (§10.19 "Archive") into overdue and days.
   */
  async agenda(userId: string, today: string, days: number): Promise<AgendaResponse> {
    return { today, ...agendaOf(await openDueOnTheirDays(this.repository, userId, addDays(today, days)), today, days) };
  }

  /**
   * Runs one task write and resolves its answer, `answer(result)`. With `request` (an `Idempotency-Key`,
   * docs/PRODUCT.md §7) the write is applied at most once per user and key, its answer kept with it: a
   * retry of the same request resolves that answer again, and the key sent with another request throws a
   * 422 `TODO.IDEMPOTENCY_KEY_REUSED`, writing nothing. Without it, the write runs as it always does.
   */
  async write<W extends TodoWrite>(userId: string, origin: string | null, write: W, answer: (result: ResultOf<W>) => StoredAnswer, request: IdempotentRequest | null): Promise<StoredAnswer> {
    // Each case of `run` resolves what TodoWriteResults says for its call.
    if (request === null) return answer((await this.run(userId, origin, write)) as ResultOf<W>);
    const outcome = await this.repository.applyOnce(userId, origin, write, request, answer);
    if (outcome.kind === 'reused') throw new HttpError(422, IDEMPOTENCY_KEY_REUSED_MESSAGE, ErrorCode.idempotencyKeyReused);
    return outcome.answer;
  }

  /** A write without a key, by the repository's own call (each its own span, `store.create`…: docs/OPERATIONS.md "Traces"). */
  private run(userId: string, origin: string | null, write: TodoWrite): Promise<TodoWriteResults[TodoWrite['call']]> {
    const r = this.repository;
    switch (write.call) {
      case 'create':
        return r.create(userId, write.title, origin, write.dated ?? {});
      case 'update':
        return r.update(userId, write.id, write.patch, origin, { keepUndo: write.keepUndo, base: write.base, today: write.today });
      case 'remove':
        return r.remove(userId, write.id, origin);
      case 'restore':
        return r.restore(userId, write.id, origin);
      case 'setAllCompleted':
        return r.setAllCompleted(userId, write.completed, origin, write.scope);
      case 'clearCompleted':
        return r.clearCompleted(userId, origin, write.scope);
      case 'restoreBulk':
        return r.undoBulk(userId, write.undoToken, origin);
      case 'createList':
        return r.createList(userId, write.input, origin);
      case 'updateList':
        return r.updateList(userId, write.id, write.patch, origin);
      case 'removeList':
        return r.removeList(userId, write.id, origin);
      case 'importTasks':
        return r.importTasks(userId, write.draft, origin, write.dryRun);
    }
  }

  /** Deletes every task and list of the user (their account is being deleted); resolves how many tasks there were. */
  purge(userId: string): Promise<number> {
    return this.repository.deleteAllForUser(userId);
  }

  /** The user's changes after `afterId`, oldest first, at most `limit`. */
  changesAfter(userId: string, afterId: string, limit: number): Promise<TodoChangeEvent[]> {
    return this.repository.eventsAfter(userId, afterId, limit);
  }

  /**
   * The changes after `after` for a device catching up (docs/PRODUCT.md §10.4): at most `limit` events, or
   * a reset when the feed no longer holds them all (catchUp). The position is read after the events, so a
   * trim racing the read is seen.
   */
  async changesSince(userId: string, after: string, limit: number): Promise<ChangesResponse> {
    // One more than a page, so `more` says whether others follow (a device never asks again for nothing).
    const events = await this.repository.eventsAfter(userId, after, limit + 1);
    return catchUp(after, events, await this.repository.feedPosition(userId), limit);
  }

  /** The change history of one of the user's tasks, newest first (docs/PRODUCT.md §10.4). */
  history(userId: string, todoId: string, limit: number): Promise<HistoryEntry[]> {
    return this.repository.history(userId, todoId, limit);
  }

  /** The user's record of an `Idempotency-Key` (a sync command's id), or null. */
  async idempotencyRecord(userId: string, key: string): Promise<IdempotencyRecord | null> {
    return this.repository.idempotencyRecord(userId, key);
  }

  /** Where the user's own change feed stands (per-user numbers: another user's writes never move it). */
  feedPosition(userId: string): Promise<FeedPosition> {
    return this.repository.feedPosition(userId);
  }
}
