import { ErrorCode, type TodoPatch } from '@tm/contracts';
import { NotFoundError } from '@tm/service-kit/errors';
import type { TodoRecord, TodosRepository } from './todos.repository.js';

/** Message of the 404 for an unknown id and for another user's task alike (they must be indistinguishable). */
export const TODO_NOT_FOUND_MESSAGE = 'Task not found';

function notFound(): NotFoundError {
  return new NotFoundError(TODO_NOT_FOUND_MESSAGE, ErrorCode.todoNotFound);
}

/** The task use cases of one signed-in user. Inputs arrive validated (contracts); no Koa, no driver here. */
export class TodosService {
  constructor(private readonly repository: TodosRepository) {}

  /** Pinned first, then newest first. */
  list(userId: string): Promise<TodoRecord[]> {
    return this.repository.list(userId);
  }

  add(userId: string, title: string): Promise<TodoRecord> {
    return this.repository.create(userId, title);
  }

  /** Sets the given flags; throws {@link NotFoundError} when the user has no such task. */
  async update(userId: string, todoId: string, patch: TodoPatch): Promise<TodoRecord> {
    const todo = await this.repository.update(userId, todoId, patch);
    if (!todo) throw notFound();
    return todo;
  }

  /** Throws {@link NotFoundError} when the user has no such task. */
  async remove(userId: string, todoId: string): Promise<void> {
    if (!(await this.repository.remove(userId, todoId))) throw notFound();
  }

  /** Deletes every task of the user (their account is being deleted); resolves how many there were. */
  purge(userId: string): Promise<number> {
    return this.repository.deleteAllForUser(userId);
  }
}
