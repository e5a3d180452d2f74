import { z } from 'zod';
import { IsoDateString, MessageResponse, ObjectIdString } from './common.js';
import { todoTitleProblem } from './todo-title.js';

export const Todo = z.object({
  _id: ObjectIdString,
  title: z.string(),
  completed: z.boolean(),
  isPinned: z.boolean(),
  createdAt: IsoDateString,
  updatedAt: IsoDateString,
});
export type Todo = z.infer<typeof Todo>;

/**
 * A task title: trimmed, then held to {@link todoTitleProblem} (1–500 characters, not invisible only), whose
 * plain-words message is the issue's message.
 */
export const TodoTitle = z
  .string()
  .trim()
  .superRefine((title, ctx) => {
    const problem = todoTitleProblem(title);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Path parameter of update-todo and delete-todo. */
export const TodoIdParams = z.object({ todoId: ObjectIdString });
export type TodoIdParams = z.infer<typeof TodoIdParams>;

/** GET /todo/fetch-todo: pinned first, then newest first. */
export const TodosResponse = z.object({ todos: z.array(Todo) });
export type TodosResponse = z.infer<typeof TodosResponse>;

/** POST /todo/add-todo */
export const AddTodoRequest = z.object({ title: TodoTitle });
export type AddTodoRequest = z.infer<typeof AddTodoRequest>;

/**
 * PUT /todo/update-todo/:todoId. PRODUCT §4 sends a fixed `true`; the server *sets* the given values, so
 * repeating a call changes nothing (idempotent, safe to retry). A title follows the same rules as at add
 * (trimmed, 1–500 characters, not invisible only).
 */
export const TodoPatch = z
  .strictObject({ title: TodoTitle.optional(), completed: z.boolean().optional(), isPinned: z.boolean().optional() })
  .refine((patch) => patch.title !== undefined || patch.completed !== undefined || patch.isPinned !== undefined, {
    message: 'updateData must set title, completed and/or isPinned',
  });
export type TodoPatch = z.infer<typeof TodoPatch>;
export const UpdateTodoRequest = z.object({ updateData: TodoPatch });
export type UpdateTodoRequest = z.infer<typeof UpdateTodoRequest>;

/** POST /todo/add-todo (201) and PUT /todo/update-todo/:todoId (200) */
export const TodoResponse = MessageResponse.extend({ todo: Todo });
export type TodoResponse = z.infer<typeof TodoResponse>;

/** DELETE /todo/delete-todo/:todoId */
export const DeleteTodoResponse = MessageResponse;
export type DeleteTodoResponse = z.infer<typeof DeleteTodoResponse>;

/** DELETE /internal/todos (gateway → svc-todos, when an account is deleted): every task of the user is gone. */
export const PurgeTodosResponse = MessageResponse.extend({ deletedCount: z.number().int().nonnegative() });
export type PurgeTodosResponse = z.infer<typeof PurgeTodosResponse>;
