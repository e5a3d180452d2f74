import { randomUUID } from 'node:crypto';
import { IsoDateString, Todo, type CreateListRequest, type ListPatch, type TodoPatch } from '@tm/contracts';
import { z } from 'zod';
import * as rules from './todos.domain.js';
import { idsNeeded, importDecision } from './transfer.domain.js';
import type { ImportDraft, ImportOutcome } from './transfer.types.js';
import type { Decision, IdempotencyRecord, IdempotentOutcome, IdempotentRequest, StoredAnswer, StoredList, StoredTask, SweepCutoffs, UndoBatch } from './todos.domain.js';
import type {
  BulkChange,
  BulkRestore,
  ChangeNotice,
  ListOutcome,
  ListRemoval,
  NewTaskFields,
  NewTaskValues,
  TaskRefusal,
  TaskScope,
  CommitListener,
  ResultOf,
  StoreOptions,
  SweepResult,
  TodoRecord,
  TodosRepository,
  TodoUpdate,
  TodoWrite,
  UpdateOptions,
} from './todos.repository.js';

// What every store adapter shares: the TodosRepository calls, built once from the rules (todos.domain.ts)
// over two things an adapter provides (a transaction that reads what it is asked and stores what it is
// handed, and the plain reads), and the small parts around them (settings, listeners, stored events).

export type StoreSettings = Required<StoreOptions>;

/** The options with their defaults: the real clock, one minute to restore, ten minutes of events. */
export function storeSettings({ now = () => new Date(), restoreWindowMs = 60_000, eventRetentionMs = 10 * 60_000 }: StoreOptions): StoreSettings {
  return { now, restoreWindowMs, eventRetentionMs };
}

/**
 * A new undo token: a random UUID (`crypto.randomUUID()`, 122 bits from the system's secure random source),
 * so nobody can guess one. It is opaque to clients (the contract's `UndoToken`).
 */
export function newUndoToken(): string {
  return randomUUID();
}

/**
 * A task inside a stored change event. Events written before `completedAt` existed lack it: such a task
 * reads as the migrations read the tasks themselves ({@link rules.completedAtOf}), so an event from before an
 * upgrade still has the contract's shape when a stream resumes.
 */
const StoredEventTodo = Todo.extend({ completedAt: IsoDateString.nullable().optional() }).transform(
  (todo): TodoRecord => ({ ...todo, completedAt: rules.completedAtOf(todo.completed, todo.updatedAt, todo.completedAt) }),
);
/** The `saved` tasks of a stored change event (see StoredEventTodo). */
export const StoredEventTodos = z.array(StoredEventTodo);

/** The listeners of one store: each is called after a commit; one failing never affects the write or the others. */
export class CommitListeners {
  private readonly listeners = new Set<CommitListener>();

  add(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  notify(notice: ChangeNotice | null): void {
    if (!notice) return;
    for (const listener of this.listeners) {
      try {
        listener(notice);
      } catch {
        // A listener's failure (a bus that is down) must not fail a write that already committed.
      }
    }
  }
}

/**
 * What a write reads of one user, in its transaction, before its rule decides: nothing (`null`), one task by
 * id (live or deleted; none for an id the store cannot hold), every live task (with `scope`, only those of
 * one list, or of the Inbox: the rule filters them by scope again), or an undo batch by token with the tasks
 * it names (live or deleted).
 */
export type TaskRead = null | { task: string } | { live: true; scope?: TaskScope } | { undo: string };

/**
 * What a write reads, in its transaction: its tasks ({@link TaskRead}) and, with `lists`, every list of the
 * user (live and deleted but not yet swept: docs/PRODUCT.md §10.19; at most LIMITS.lists live ones).
 */
export interface ReadPlan {
  tasks: TaskRead;
  lists: boolean;
}

/** What a {@link ReadPlan} found. */
export interface Snapshot {
  tasks: StoredTask[];
  /** The user's lists, when the plan asked for them; `[]` otherwise. */
  lists: StoredList[];
  /** The user's batch of the token read (any age: the rule checks the window); absent otherwise. */
  undo?: UndoBatch;
  /** The user's record of the idempotency key read (any age: the rule checks the retention); absent otherwise. */
  idempotency?: IdempotencyRecord;
}

/** A rule applied to what a write read, at the write's time. */
export type Decide<R> = (snapshot: Snapshot, now: Date) => Decision<R>;

/** One write ready to run: what it reads and the rule that decides on it. */
interface Plan<R> {
  read: ReadPlan;
  decide: Decide<R>;
}

/** A plan's read of tasks only, or of tasks and the user's lists. */
const tasksOnly = (tasks: TaskRead): ReadPlan => ({ tasks, lists: false });
const withLists = (tasks: TaskRead): ReadPlan => ({ tasks, lists: true });

/**
 * The TodosRepository writes every adapter shares, each one rule of todos.domain.ts. An adapter
 * extends it with {@link transact} and the plain reads (list, events, feed position, account purge); it
 * holds no task rule of its own.
 */
export abstract class TodosStoreBase
  implements Omit<TodosRepository, 'list' | 'listJson' | 'openDueBefore' | 'listsOf' | 'search' | 'deleteAllForUser' | 'eventsAfter' | 'feedPosition' | 'idempotencyRecord' | 'history' | 'historyOfUser' | 'ping' | 'close'>
{
  private readonly listeners = new CommitListeners();

  protected constructor(protected readonly settings: StoreSettings) {}

  /**
   * One write, in one transaction: reads `read` of `userId` (and, with `idempotencyKey`, the user's record of
   * that key), calls `decide` with it and the time of the write, and stores the decision's writes (tasks
   * exactly as given, the undo batch kept or spent, the key's record) with its event as the user's next
   * number (`origin` in it). Resolves the decision's result and the notice of the event (`null` when none was
   * appended). `decide` is pure: a driver may run the transaction again.
   */
  protected abstract transact<R>(
    userId: string,
    origin: string | null,
    read: ReadPlan,
    decide: Decide<R>,
    idempotencyKey: string | null,
  ): Promise<{ result: R; notice: ChangeNotice | null }>;
  /** A new task id (24 lower-case hex digits). */
  protected abstract newId(): string;
  /** Removes what lies at or before the cutoffs (see {@link TodosRepository.sweep}), key records at or before `idempotencyExpired`. */
  protected abstract purgeExpired(cutoffs: SweepCutoffs, idempotencyExpired: Date): Promise<SweepResult>;

  /** Runs one write and tells the listeners about its event once it committed. */
  private async run<R>(userId: string, origin: string | null, { read, decide }: Plan<R>, idempotencyKey: string | null = null): Promise<R> {
    const { result, notice } = await this.transact(userId, origin, read, decide, idempotencyKey);
    this.listeners.notify(notice);
    return result;
  }

  /** The read and the rule of a write; ids and undo tokens are drawn here, once, outside the (retryable) rule. */
  private plan(write: TodoWrite): Plan<unknown> {
    const { restoreWindowMs } = this.settings;
    switch (write.call) {
      case 'create': {
        const id = this.newId();
        const fields = write.dated ?? {};
        // The lists are read only for a task that names one (docs/PRODUCT.md §10.19): an Inbox add reads nothing.
        return { read: fields.listId === undefined ? tasksOnly(null) : withLists(null), decide: ({ lists }, now) => rules.addTodoToList(id, write.title, now, fields, lists) };
      }
      case 'update': {
        const token = write.keepUndo ? newUndoToken() : null;
        const read = typeof write.patch.listId === 'string' ? withLists({ task: write.id }) : tasksOnly({ task: write.id });
        return { read, decide: ({ tasks, lists }, now) => rules.editTodo(tasks[0], write.patch, now, token, write.base, write.today, lists) };
      }
      case 'remove':
        return { read: tasksOnly({ task: write.id }), decide: ({ tasks }, now) => rules.deleteTodo(tasks[0], now) };
      case 'restore':
        return { read: withLists({ task: write.id }), decide: ({ tasks, lists }, now) => rules.restoreTodo(tasks[0], now, restoreWindowMs, lists) };
      case 'setAllCompleted': {
        const token = newUndoToken();
        return { read: tasksOnly({ live: true, scope: write.scope }), decide: ({ tasks }, now) => rules.completeAll(tasks, write.completed, now, token, write.scope) };
      }
      case 'clearCompleted': {
        const token = newUndoToken();
        return { read: tasksOnly({ live: true, scope: write.scope }), decide: ({ tasks }, now) => rules.clearCompleted(tasks, now, token, write.scope) };
      }
      case 'restoreBulk':
        return { read: withLists({ undo: write.undoToken }), decide: ({ undo, tasks, lists }, now) => rules.undoBatch(undo, tasks, lists, now, restoreWindowMs) };
      case 'createList': {
        const id = this.newId();
        return { read: withLists(null), decide: ({ lists }, now) => rules.createList(id, write.input, lists, now) };
      }
      case 'updateList':
        return { read: withLists(null), decide: ({ lists }, now) => rules.editList(write.id, write.patch, lists, now) };
      case 'importTasks': {
        // Ids drawn once here, outside the (retryable) rule, as every write's are (docs/PRODUCT.md §10.23).
        const ids = write.dryRun ? [] : Array.from({ length: idsNeeded(write.draft) }, () => this.newId());
        return { read: withLists(null), decide: ({ lists }, now) => importDecision(write.draft, lists, now, ids, write.dryRun) };
      }
      case 'removeList': {
        const token = newUndoToken();
        return { read: withLists({ live: true, scope: write.id }), decide: ({ tasks, lists }, now) => rules.deleteList(write.id, lists, tasks, now, token) };
      }
    }
  }

  /** {@link plan}, typed by the write: each case's rule resolves what {@link TodoWriteResults} says for its call. */
  private planOf<W extends TodoWrite>(write: W): Plan<ResultOf<W>> {
    return this.plan(write) as Plan<ResultOf<W>>;
  }

  /** Runs `write` without a key, as its own call (create, update…). */
  private apply<W extends TodoWrite>(userId: string, origin: string | null, write: W): Promise<ResultOf<W>> {
    return this.run(userId, origin, this.planOf(write));
  }

  applyOnce<W extends TodoWrite>(userId: string, origin: string | null, write: W, request: IdempotentRequest, answer: (result: ResultOf<W>) => StoredAnswer): Promise<IdempotentOutcome> {
    const { read, decide } = this.planOf(write);
    const once: Decide<IdempotentOutcome> = (snapshot, now) => rules.decideOnce(snapshot.idempotency, request, now, () => decide(snapshot, now), answer);
    return this.run(userId, origin, { read, decide: once }, request.key);
  }

  create(userId: string, title: string, origin?: string | null, due?: string | (NewTaskValues & { listId?: undefined })): Promise<TodoRecord>;
  create(userId: string, title: string, origin: string | null, fields: NewTaskFields): Promise<TodoRecord | TaskRefusal>;
  async create(userId: string, title: string, origin: string | null = null, due?: string | NewTaskFields): Promise<TodoRecord | TaskRefusal> {
    return this.apply(userId, origin, due === undefined ? { call: 'create', title } : { call: 'create', title, dated: typeof due === 'string' ? { due } : due });
  }

  async update(userId: string, id: string, patch: TodoPatch, origin: string | null = null, { keepUndo = false, base, today }: UpdateOptions = {}): Promise<TodoUpdate | null> {
    return this.apply(userId, origin, { call: 'update', id, patch, keepUndo, base, today });
  }

  async remove(userId: string, id: string, origin: string | null = null): Promise<boolean> {
    return this.apply(userId, origin, { call: 'remove', id });
  }

  async restore(userId: string, id: string, origin: string | null = null): Promise<TodoRecord | null> {
    return this.apply(userId, origin, { call: 'restore', id });
  }

  async setAllCompleted(userId: string, completed: boolean, origin: string | null = null, scope?: TaskScope): Promise<BulkChange> {
    return this.apply(userId, origin, { call: 'setAllCompleted', completed, scope });
  }

  async clearCompleted(userId: string, origin: string | null = null, scope?: TaskScope): Promise<BulkChange> {
    return this.apply(userId, origin, { call: 'clearCompleted', scope });
  }

  async restoreBulk(userId: string, undoToken: string, origin: string | null = null): Promise<TodoRecord[] | null> {
    return (await this.undoBulk(userId, undoToken, origin))?.todos ?? null;
  }

  async undoBulk(userId: string, undoToken: string, origin: string | null = null): Promise<BulkRestore | null> {
    return this.apply(userId, origin, { call: 'restoreBulk', undoToken });
  }

  async createList(userId: string, input: CreateListRequest, origin: string | null = null): Promise<ListOutcome> {
    return this.apply(userId, origin, { call: 'createList', input });
  }

  async updateList(userId: string, id: string, patch: ListPatch, origin: string | null = null): Promise<ListOutcome> {
    return this.apply(userId, origin, { call: 'updateList', id, patch });
  }

  async removeList(userId: string, id: string, origin: string | null = null): Promise<ListRemoval> {
    return this.apply(userId, origin, { call: 'removeList', id });
  }

  async sweep(): Promise<SweepResult> {
    const now = this.settings.now();
    return this.purgeExpired(rules.sweepCutoffs(now, this.settings), rules.idempotencyExpiry(now));
  }

  onCommit(listener: CommitListener): () => void {
    return this.listeners.add(listener);
  }

  // ----- Import and export (docs/PRODUCT.md §10.23): one transaction, the rule transfer.domain.ts's -----
  async importTasks(userId: string, draft: ImportDraft, origin: string | null, dryRun: boolean): Promise<ImportOutcome> {
    return this.apply(userId, origin, { call: 'importTasks', draft, dryRun });
  }
  // ----- end of import and export -----
}
