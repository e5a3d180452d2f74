import { z } from 'zod';
import { IsoDateString, MessageResponse, ObjectIdString } from './common.js';
import { INBOX_ID, LIST_COLOUR_MESSAGE, LIST_COLOURS, LIST_ORDER_MESSAGE, listNameProblem, listNameValue } from './list-rules.js';
import { isOrderKey } from './order-keys.js';

export * from './list-rules.js';
export * from './order-keys.js';

/** A list's colour (docs/PRODUCT.md §10.19): one of LIST_COLOURS. */
export const ListColourField = z.enum(LIST_COLOURS, { error: LIST_COLOUR_MESSAGE });

/** A list's name: the title's trimming, 1–60 characters, not "Inbox" ({@link listNameProblem}). */
export const ListName = z
  .string()
  .overwrite(listNameValue)
  .superRefine((name, ctx) => {
    const problem = listNameProblem(name);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Where a list (or a task) stands among its neighbours: a fractional order key (list-rules.ts `orderKeyBetween`). */
export const OrderKey = z.string().refine(isOrderKey, LIST_ORDER_MESSAGE);

/**
 * A list of tasks (docs/PRODUCT.md §10.19): its name (unique per person, case aside), colour, place among the
 * person's lists (`order`, ascending, then `_id`), and whether it is archived (kept with its tasks, out of
 * the way). The Inbox is not one of them: it is where a task without `listId` is.
 */
export const TaskList = z.object({
  _id: ObjectIdString,
  name: z.string(),
  colour: ListColourField,
  order: z.string(),
  archived: z.boolean(),
  createdAt: IsoDateString,
  updatedAt: IsoDateString,
});
export type TaskList = z.infer<typeof TaskList>;

/**
 * Which tasks a bulk call acts on (docs/PRODUCT.md §10.19): a list's id, or INBOX_ID for the tasks in no list.
 * Absent: every task (PUT /todo/complete-all's `listId`, DELETE /todo/clear-completed's `?listId=`).
 */
export const ListScope = z.union([z.literal(INBOX_ID), ObjectIdString], { error: `listId is a list's id or "${INBOX_ID}"` });
export type ListScope = z.infer<typeof ListScope>;

/** Query of DELETE /todo/clear-completed: the list whose completed tasks go (absent: every list). */
export const ClearCompletedQuery = z.object({ listId: ListScope.optional() });
export type ClearCompletedQuery = z.infer<typeof ClearCompletedQuery>;

/** Path parameter of update-list and delete-list. */
export const ListIdParams = z.object({ listId: ObjectIdString });
export type ListIdParams = z.infer<typeof ListIdParams>;

/** POST /todo/lists: a new list, grey unless a colour is given, after the person's last list unless an `order` is given. */
export const CreateListRequest = z.strictObject({
  name: ListName,
  colour: ListColourField.optional(),
  order: OrderKey.optional(),
});
export type CreateListRequest = z.infer<typeof CreateListRequest>;

/** PUT /todo/lists/:listId: sets the given values (idempotent): rename, recolour, move (`order`), archive or bring back. */
export const ListPatch = z
  .strictObject({
    name: ListName.optional(),
    colour: ListColourField.optional(),
    order: OrderKey.optional(),
    archived: z.boolean().optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { message: 'Set name, colour, order and/or archived' });
export type ListPatch = z.infer<typeof ListPatch>;

/** POST /todo/lists (201) and PUT /todo/lists/:listId (200): the list as it now is, and what changed ("List created", "List renamed"…). */
export const ListResponse = MessageResponse.extend({ list: TaskList });
export type ListResponse = z.infer<typeof ListResponse>;
