import type { SearchPlan } from './search.domain.js';
import type { ChangeBase, CreateListRequest, HistoryEntry, ListPatch, Priority, TaskList, Todo, TodoChangeEvent, TodoPatch, ValidationIssue } from '@tm/contracts';

import type { ImportDraft, ImportOutcome } from './transfer.types.js';

// The port of svc-todos' storage: the contract only. The rules behind it are in todos.domain.ts; what the
// store adapters share (the calls built from those rules, commit listeners, settings) is in todos.store-base.ts.

/** A task as every store returns it: the public `Todo` shape (24-hex `_id`, ISO timestamps). */
export type TodoRecord = Todo;

/** What a new task may carry beyond its title (docs/PRODUCT.md §10.14, §10.16, §10.17), as the contracts checked it. */
export type DatedFields = Pick<TodoRecord, 'due' | 'repeat' | 'repeatFrom' | 'reminders'>;

/** A list of tasks as every store returns it: the public `TaskList` shape (docs/PRODUCT.md §10.19). */
export type ListRecord = TaskList;

/**
 * A new task's priority and labels (docs/PRODUCT.md §10.20) as a request sets them: priority 4 is none, and so
 * are no labels (`[]`); a task keeps neither.
 */
export interface MarkFields {
  priority?: Priority;
  labels?: string[];
}

/** A new task's note and subtasks (docs/PRODUCT.md §10.21) as a request sets them: an empty note and no subtasks (`[]`) are none. */
export type DetailFields = Pick<TodoRecord, 'note' | 'subtasks'>;

/** The fields of a new task beyond its title and list: its dated fields, its priority and labels, its note and subtasks. */
export type NewTaskValues = DatedFields & MarkFields & DetailFields;

/**
 * What a new task may carry: its dated fields, its priority and labels, and the list it goes in (absent: the
 * Inbox, docs/PRODUCT.md §10.19).
 */
export type NewTaskFields = NewTaskValues & { listId?: string };

/** A task write refused by the rules (a `listId` that names none of the user's live lists, §10.19): nothing changed. */
export interface TaskRefusal {
  problem: ValidationIssue;
}

/**
 * Which tasks a bulk call acts on (§10.19): a list's id, INBOX_ID (the tasks in no list), or `undefined`
 * for every task.
 */
export type TaskScope = string | undefined;

/** A list field a patch can set. */
export type ListField = keyof ListPatch;

/**
 * What a list write did (§10.19): `saved`, the list as it now is and the fields the call changed (`[]` for
 * a create, and for a repeat that changed nothing); or why nothing was written: no such live list of the
 * user (`not-found`), the name already another of the user's lists' (`name-taken`), or the lists full.
 */
export type ListOutcome =
  | { kind: 'saved'; list: ListRecord; changed: ListField[] }
  | { kind: 'not-found' }
  | { kind: 'name-taken'; issue: ValidationIssue }
  | { kind: 'full' };

/** What a list's delete did: the list and the tasks that went with it, and the undo token; or `not-found`. */
export type ListRemoval = { kind: 'removed'; list: ListRecord; todos: TodoRecord[]; undoToken: string } | { kind: 'not-found' };

/** What an undo by token brought back: the tasks, in list order, and the list a list's delete took (else none). */
export interface BulkRestore {
  todos: TodoRecord[];
  lists: ListRecord[];
}

/** A search's answer (§10.22): the tasks picked, in rank order, and how many more matched the filters. */
export interface SearchResult {
  todos: TodoRecord[];
  more: number;
}

/** A task list read together with its user's change feed position (docs/PRODUCT.md §10.11.5). */
export interface TodoList {
  todos: TodoRecord[];
  /** The user's lists (§10.19), archived ones too, in their order (byListPlace); read in the same snapshot. */
  lists: ListRecord[];
  /** The user's feed position when the list was read: every change up to it is in `todos`, none after it. */
  cursor: string;
}

/**
 * Where one user's change feed stands: `cursor` is the user's highest event number handed out so far ("0"
 * before any), and `trimmedThrough` the user's highest number already trimmed for age. A reader resuming
 * after a number below `trimmedThrough` may have lost events and must start over from the list. Both are
 * the user's own: they move with the user's writes (and the sweep of the user's old events) only, never
 * with another user's, so they tell nobody how much anyone else writes (docs/PRODUCT.md §10.11.5).
 */
export interface FeedPosition {
  cursor: string;
  trimmedThrough: string;
}

/** Sent after a write committed: which user's feed moved, and to which of the user's event numbers. */
export interface ChangeNotice {
  userId: string;
  id: string;
}

export type CommitListener = (notice: ChangeNotice) => void;

/** Options every store adapter accepts. */
export interface StoreOptions {
  /** Source of `createdAt`/`updatedAt`; tests inject a fake clock to control ordering. */
  now?: () => Date;
  /**
   * How long a deleted task can be restored (docs/PRODUCT.md §10.11.4), and a bulk call undone with its token
   * (§10.11.3); after that the task is removed for good and the token forgotten.
   */
  restoreWindowMs?: number;
  /** How long change events are kept for streams that resume (docs/PRODUCT.md §10.11.5). */
  eventRetentionMs?: number;
}

/** What one {@link TodosRepository.sweep} removed. */
export interface SweepResult {
  /** Deleted tasks whose restore window had closed. */
  purgedTodos: number;
  /** Deleted lists whose restore window had closed (docs/PRODUCT.md §10.19). */
  purgedLists: number;
  /** Change events older than the retention. */
  trimmedEvents: number;
  /** Undo batches (see {@link TodosRepository.restoreBulk}) whose restore window had closed. */
  purgedUndoBatches: number;
  /** History entries past the history's retention (docs/PRODUCT.md §10.4). */
  purgedHistory: number;
}

/** What a bulk call did, and how to undo it. */
export interface BulkChange {
  /**
   * The tasks the call changed, in list order: as they now are (setAllCompleted), or as they were when it
   * deleted them (clearCompleted).
   */
  todos: TodoRecord[];
  /** The single-use token of {@link TodosRepository.restoreBulk}; `null` when the call changed nothing. */
  undoToken: string | null;
}

/** A field a patch can set (title, completed, isPinned). */
export type TodoField = keyof TodoPatch;

/** What one {@link TodosRepository.update} did. */
export interface TodoUpdate {
  /** The task as it now is. */
  todo: TodoRecord;
  /** The fields whose value the call changed, in TODO_PATCH_FIELDS order; `[]` for a repeat of the call. */
  changed: TodoField[];
  /** A tick that completed an occurrence of a repeating task and moved it to its next date (docs/PRODUCT.md §10.16). */
  repeated?: boolean;
  /** Why the patch was refused (a repeat or reminders the task cannot keep, §10.16, §10.17): nothing changed. */
  problem?: ValidationIssue;
  /**
   * With `keepUndo`, when the call changed `completed`: the token of {@link TodosRepository.restoreBulk} that
   * puts back the task's previous `completed`, `completedAt` and `updatedAt`. Otherwise `null`.
   */
  undoToken: string | null;
  /** The fields changed elsewhere since the update's base (docs/PRODUCT.md §10.4); `[]` without a base. */
  conflicts: TodoField[];
}

/** Options of {@link TodosRepository.update}. */
export interface UpdateOptions {
  /**
   * Keep an undo batch of the change of `completed`, in the same transaction (the service asks for it for a
   * patch of `completed` alone: a tick, docs/PRODUCT.md §10.11.4).
   */
  keepUndo?: boolean;
  /** The values the changed fields had where the change was made (docs/PRODUCT.md §10.4). */
  base?: ChangeBase;
  /** The person's day when they acted (`YYYY-MM-DD`): a repeating task's next date counts from it (§10.16). */
  today?: string;
}

/** One task write as data: the call of the repository it stands for, and that call's arguments ({@link TodosRepository.applyOnce}). */
export type TodoWrite =
  | { call: 'create'; title: string; dated?: NewTaskFields }
  | { call: 'update'; id: string; patch: TodoPatch; keepUndo: boolean; base?: ChangeBase; today?: string }
  | { call: 'remove'; id: string }
  | { call: 'restore'; id: string }
  | { call: 'setAllCompleted'; completed: boolean; scope?: TaskScope }
  | { call: 'clearCompleted'; scope?: TaskScope }
  | { call: 'restoreBulk'; undoToken: string }
  | { call: 'createList'; input: CreateListRequest }
  | { call: 'updateList'; id: string; patch: ListPatch }
  | { call: 'removeList'; id: string }
  | { call: 'importTasks'; draft: ImportDraft; dryRun: boolean };

/** What each {@link TodoWrite} resolves: what its repository call resolves. */
export interface TodoWriteResults {
  create: TodoRecord | TaskRefusal;
  update: TodoUpdate | null;
  remove: boolean;
  restore: TodoRecord | null;
  setAllCompleted: BulkChange;
  clearCompleted: BulkChange;
  restoreBulk: BulkRestore | null;
  createList: ListOutcome;
  updateList: ListOutcome;
  removeList: ListRemoval;
  importTasks: ImportOutcome;
}

export type ResultOf<W extends TodoWrite> = TodoWriteResults[W['call']];

/**
 * Where the tasks of every user live. Every call is scoped to `userId`: another user's task id behaves
 * exactly like an unknown id, so a caller can never tell the two apart; nor can a user learn anything of
 * another user's activity from what a call answers (the change feed's numbers included).
 *
 * **Soft delete.** `remove` only marks a task deleted; from then on it is invisible to every call but
 * `restore`, which brings it back unchanged within the restore window. {@link sweep} removes it for good
 * afterwards (restore checks the window itself, so a late sweep never extends it).
 *
 * **Completion time.** Every task has `completedAt`: the time of the write that turned `completed` from
 * false to true (update or setAllCompleted), `null` while it is active (a write that reopens it clears it).
 * A write that does not change `completed` does not touch it, and restore / restoreBulk bring it back
 * exactly. Tasks completed before the field existed were given their `updatedAt` by the store's migration
 * (the best time known for them).
 *
 * **Bulk undo.** `setAllCompleted` and `clearCompleted` (and an `update` asked to, for a tick) keep, in the
 * same transaction as their change, an undo batch: a new unguessable token (a random UUID), the user,
 * the time, and what the call changed (the ids; for setAllCompleted and the tick each task's previous
 * `completed`, `completedAt` and `updatedAt`). The batch
 * lives in the store, so any process, and any device of the user, can undo. {@link restoreBulk} spends it
 * within the restore window, in one transaction with one event; {@link sweep} forgets it after the window;
 * {@link deleteAllForUser} removes it with the account.
 *
 * **Change feed (outbox).** Every write that changes something appends exactly one event to its user's
 * feed in the same transaction: the user's next event number, the writing page's `origin`, the tasks as
 * they now are (`saved`) and the ids that are gone (`removed`). Event numbers are per user: each user's
 * events are numbered 1, 2, 3 … in the order they commit (one above the user's previous event, never
 * reused, trimmed ones included), so the position a user sees moves with that user's writes only
 * (one global sequence would tell every user how many changes all the others make). Writes that
 * change nothing (a repeated update, a bulk call with nothing to do, an unknown id) append nothing. The
 * account purge appends nothing either: it drops the user's events and feed position with the tasks, and
 * the user's streams end with the account. After a commit the store tells its {@link onCommit} listeners,
 * so live streams wake up.
 */
export interface TodosRepository {
  /**
   * The user's tasks, pinned first, then newest first (`createdAt` desc, then `_id` desc), and the user's
   * live lists (archived ones too) in their order, with the feed's position read in the same snapshot.
   */
  list(userId: string): Promise<TodoList>;
  /**
   * The same list, already serialised as the `TodosResponse` body (`{"todos":[…],"lists":[…],"cursor":"…"}`): what
   * GET /todo/fetch-todo answers. A store may build it straight from its rows (the list is the hot path,
   * and turning a thousand rows into objects only to stringify them costs more than the rest).
   */
  listJson(userId: string): Promise<string>;
  /**
   * The user's open tasks (not completed, not deleted) with a due date before `before` (a day `YYYY-MM-DD`;
   * due dates compare as text, so a task due on `before` itself, with a time or without, is not among them),
   * in list order: what Today and Upcoming are made of (docs/PRODUCT.md §10.15). Only reads; which day a task
   * goes to is the contracts' `agendaOf`. Served by an index of the open dated tasks, so its cost follows
   * the tasks it answers, not every task of the user.
   */
  openDueBefore(userId: string, before: string): Promise<TodoRecord[]>;
  /**
   * The user's live lists (§10.19), archived ones too, in their order (byListPlace): what the reads that leave
   * an archived list's tasks out (Today and Upcoming, the calendar feed, search across lists) learn them from.
   */
  listsOf(userId: string): Promise<ListRecord[]>;
  /**
   * Search (docs/PRODUCT.md §10.22): the user's live tasks whose title, note or subtasks hold every one of
   * `terms` (the contracts' searchTerms: a word each, the last one the start of a word), through the store's
   * full-text index, best match first, then pinned, then newest. The plan (search.domain.ts's searchPlan, the
   * filters' rule) picks, from the matches in that order, the ones read in full: the answer holds those tasks
   * in that order and how many more passed. Only reads.
   */
  search(userId: string, terms: readonly string[], plan: SearchPlan): Promise<SearchResult>;
  /**
   * Stores a new task: not completed, not pinned, `createdAt === updatedAt`; due at `due` when given
   * (docs/PRODUCT.md §10.14), or with a due date, a repeat and reminders (§10.16, §10.17), a priority and
   * labels (§10.20). With a `listId` (§10.19) it goes in that list, or, when that is none of the user's live
   * lists, nothing is stored and the refusal names `listId`.
   */
  create(userId: string, title: string, origin?: string | null, due?: string | (NewTaskValues & { listId?: undefined })): Promise<TodoRecord>;
  create(userId: string, title: string, origin: string | null, fields: NewTaskFields): Promise<TodoRecord | TaskRefusal>;
  /**
   * Sets the given title and flags (idempotent). `updatedAt` moves, and an event is appended, only when a
   * value actually changes, so repeating a call returns exactly the same task (and no changed field). With
   * `keepUndo`, a call that changes `completed` also keeps an undo batch of it (kind 'complete-all', the one
   * task with the values it replaced), exactly as setAllCompleted does, and answers its token. `null` when the
   * user has no (undeleted) task with this id.
   */
  update(userId: string, id: string, patch: TodoPatch, origin?: string | null, options?: UpdateOptions): Promise<TodoUpdate | null>;
  /** Marks the task deleted (soft delete). `false` when the user has no (undeleted) task with this id. */
  remove(userId: string, id: string, origin?: string | null): Promise<boolean>;
  /**
   * Undoes a delete made less than the restore window ago: the task comes back exactly as it was (same id,
   * title, flags, `createdAt`, `updatedAt`). `null` when there is no such deleted task, or it is too late.
   */
  restore(userId: string, id: string, origin?: string | null): Promise<TodoRecord | null>;
  /**
   * Marks every task of the user complete (`true`, `completedAt` = now) or active (`completedAt` = null), in
   * one transaction; resolves the tasks it changed (their `updatedAt` moved), in list order, with the undo
   * token of the call (`null` when nothing changed). Tasks already in that state are left untouched.
   */
  setAllCompleted(userId: string, completed: boolean, origin?: string | null, scope?: TaskScope): Promise<BulkChange>;
  /**
   * Deletes (softly) every completed task of the user in one transaction; resolves the tasks it deleted and
   * the undo token of the call (`null` when there was nothing to clear).
   */
  clearCompleted(userId: string, origin?: string | null, scope?: TaskScope): Promise<BulkChange>;
  /**
   * Undoes the bulk call that handed out `undoToken`, in one transaction with one event (`saved`: the tasks
   * it brought back). After clearCompleted, every task that call deleted comes back exactly as it was (same
   * id, title, flags, `createdAt`, `updatedAt`, `completedAt`, so the same place in the list). After
   * setAllCompleted (or an update's tick with `keepUndo`), every task that call changed gets back its previous `completed`, `completedAt` and
   * `updatedAt`, but only while it still is exactly as the call left it (same `completed`, `completedAt` and
   * `updatedAt`, not deleted): a task changed or deleted since is left alone. Every change moves `updatedAt`
   * to the time of the write, so only a change made in the very millisecond of the bulk call itself could go
   * unnoticed. Resolves the tasks restored, in list order, and spends the token (even when none was left to
   * restore: `[]`). `null`, changing nothing and appending nothing, when the token is unknown, already
   * spent, another user's, or older than the restore window.
   */
  restoreBulk(userId: string, undoToken: string, origin?: string | null): Promise<TodoRecord[] | null>;
  /**
   * {@link restoreBulk}, answering the lists it brought back too: after a list's delete (removeList) the list
   * comes back with the tasks it took, exactly as they were, in the same transaction and event. A list whose
   * name another live list has taken meanwhile (or with the user's lists full) is not brought back: `null`,
   * nothing changed, the token kept.
   */
  undoBulk(userId: string, undoToken: string, origin?: string | null): Promise<BulkRestore | null>;
  /**
   * A new list (docs/PRODUCT.md §10.19): `DEFAULT_LIST_COLOUR` unless a colour is given, after the user's last
   * list unless an `order` is given; refused (nothing written) when another of the user's lists has its name
   * (listNameKey) or the user has LIMITS.lists lists.
   */
  createList(userId: string, input: CreateListRequest, origin?: string | null): Promise<ListOutcome>;
  /** Sets the given values of one of the user's live lists (idempotent: a repeat changes nothing, appends no event). */
  updateList(userId: string, id: string, patch: ListPatch, origin?: string | null): Promise<ListOutcome>;
  /**
   * Deletes (softly) one of the user's live lists and every live task in it, in one transaction with one
   * event (`removed`: the tasks, `removedLists`: the list), keeping an undo batch of kind 'delete-list'.
   */
  removeList(userId: string, id: string, origin?: string | null): Promise<ListRemoval>;
  /**
   * Runs `write` under an `Idempotency-Key` (docs/PRODUCT.md §7), the rules being decideOnce's
   * (todos.domain.ts): in the write's transaction it reads the user's record of the key; without one (or
   * one past the retention) it applies the write and keeps the record of `answer(result)` in that same
   * transaction; with one of the same request it writes nothing and resolves the kept answer; with one
   * of another request it writes nothing and resolves `reused`. Concurrent calls with one key are
   * serialised by the store (one transaction commits first; the other then finds its record), so a
   * write is applied once however many arrive at the same time. Keys are per user.
   */
  applyOnce<W extends TodoWrite>(userId: string, origin: string | null, write: W, request: IdempotentRequest, answer: (result: ResultOf<W>) => StoredAnswer): Promise<IdempotentOutcome>;
  /** The user's record of `key`, whatever its age (the sweep removes the expired ones); `null` when none. */
  idempotencyRecord(userId: string, key: string): Promise<IdempotencyRecord | null>;
  /**
   * The change history of one of the user's tasks (docs/PRODUCT.md §10.4), live or deleted: every value a
   * write replaced, newest first (highest `version`, then field order), at most `limit`; `[]` for an unknown
   * id or another user's. Each write that changed fields stored them in its own transaction, numbered with
   * its event (`version`) and carrying its `origin`.
   */
  history(userId: string, todoId: string, limit: number): Promise<HistoryEntry[]>;
  /**
   * Removes every task and list of the user for good, deleted or not, the user's change events, undo batches,
   * records of idempotency keys and history (account deletion); resolves how many (undeleted) tasks there were.
   */
  deleteAllForUser(userId: string): Promise<number>;
  /** The user's change events numbered above `afterId`, in number order, at most `limit`. */
  eventsAfter(userId: string, afterId: string, limit: number): Promise<TodoChangeEvent[]>;
  /** Where the user's feed stands (`0`/`0` for a user who never wrote, or whose events were all purged). */
  feedPosition(userId: string): Promise<FeedPosition>;
  /**
   * Removes deleted tasks, deleted lists and undo batches past the restore window and trims events past the retention: for
   * each user, the events up to the user's newest expired one, raising that user's `trimmedThrough` to it.
   * Also removes the records of idempotency keys past their retention (todos.domain.ts idempotencyExpiry) and
   * history entries past theirs (SweepCutoffs.historyExpired).
   */
  sweep(): Promise<SweepResult>;
  /** Calls `listener` after each committed write that appended an event; returns the unsubscribe. */
  onCommit(listener: CommitListener): () => void;

  // ----- Import and export (docs/PRODUCT.md §10.23) -----
  /**
   * Stores what a file holds (transfer.domain.ts readImportFile), all in one transaction with one event, or
   * nothing: its lists are placed among the user's (importDecision, on the user's lists read in that
   * transaction) and every task is stored new. `dryRun`: the same answer, nothing stored, no event.
   */
  importTasks(userId: string, draft: ImportDraft, origin: string | null, dryRun: boolean): Promise<ImportOutcome>;
  /** Every history entry of the user's tasks (the last 30 days), newest first: the export's `history`. */
  historyOfUser(userId: string): Promise<HistoryEntry[]>;
  // ----- end of import and export -----
  /** Resolves true when the store answers; readiness (`/readyz`) calls it. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** A write's answer as it was sent: its HTTP status and its JSON body. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** One user's record of one key. */
export interface IdempotencyRecord {
  key: string;
  /** The fingerprint (todos.domain.ts `requestFingerprint`) of the request that first came with the key. */
  fingerprint: string;
  answer: StoredAnswer;
  createdAt: string;
}

/** A write's key and its request's fingerprint. */
export interface IdempotentRequest {
  key: string;
  fingerprint: string;
}

/** What a write under a key resolves: the answer (`replayed`: the one kept for the key), or `reused`. */
export type IdempotentOutcome = { kind: 'answered'; answer: StoredAnswer; replayed: boolean } | { kind: 'reused' };
