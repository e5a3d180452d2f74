import type { Todo, TodoPatch } from '@tm/contracts';

/** A task as every store returns it: the public `Todo` shape (24-hex `_id`, ISO timestamps). */
export type TodoRecord = Todo;

/** Options every store adapter accepts. */
export interface StoreClock {
  /** Source of `createdAt`/`updatedAt`; tests inject a fake clock to control ordering. */
  now?: () => Date;
}

/**
 * Where the tasks of every user live. Every call is scoped to `userId`: another user's task id behaves
 * exactly like an unknown id, so a caller can never tell the two apart.
 */
export interface TodosRepository {
  /** The user's tasks, pinned first, then newest first (`createdAt` desc, then `_id` desc). */
  list(userId: string): Promise<TodoRecord[]>;
  /** Stores a new task: not completed, not pinned, `createdAt === updatedAt`. */
  create(userId: string, title: string): Promise<TodoRecord>;
  /**
   * Sets the given flags (idempotent). `updatedAt` moves only when a value actually changes, so repeating
   * a call returns exactly the same task. `null` when the user has no task with this id.
   */
  update(userId: string, id: string, patch: TodoPatch): Promise<TodoRecord | null>;
  /** `false` when the user has no task with this id. */
  remove(userId: string, id: string): Promise<boolean>;
  /** Deletes every task of the user in one statement (account deletion); resolves how many there were. */
  deleteAllForUser(userId: string): Promise<number>;
  /** Resolves true when the store answers; readiness (`/readyz`) calls it. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
