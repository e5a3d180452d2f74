import { z } from 'zod';
import { IsoDateString, MessageResponse, ObjectIdString } from './common.js';
import { isSavedFilterAddress, SAVED_FILTER_ADDRESS_MESSAGE, savedFilterNameProblem, savedFilterNameValue } from './saved-filter-rules.js';

export * from './saved-filter-rules.js';

/** A saved filter's name: the title's trimming, 1–60 characters ({@link savedFilterNameProblem}). */
export const SavedFilterName = z
  .string()
  .overwrite(savedFilterNameValue)
  .superRefine((name, ctx) => {
    const problem = savedFilterNameProblem(name);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A saved filter's address: the task screen's, canonical, as `filterAddressOf` makes it. */
export const SavedFilterAddress = z.string().refine(isSavedFilterAddress, SAVED_FILTER_ADDRESS_MESSAGE);

/**
 * A saved filter (docs/PRODUCT.md §10.20 "Saved filters"): a name, unique per person (case aside), and the
 * address of the task screen it opens (a list and its filters).
 */
export const SavedFilter = z.object({
  _id: ObjectIdString,
  name: z.string(),
  address: z.string(),
  createdAt: IsoDateString,
  updatedAt: IsoDateString,
});
export type SavedFilter = z.infer<typeof SavedFilter>;

/** GET /todo/saved-filters: the person's saved filters, by name. */
export const SavedFiltersResponse = z.object({ filters: z.array(SavedFilter) });
export type SavedFiltersResponse = z.infer<typeof SavedFiltersResponse>;

/**
 * PUT /todo/saved-filters: saves `address` under `name`. A name the person already gave a filter (case aside)
 * gets the new address and spelling (200 "Filter updated"); another is a new filter (201 "Filter saved").
 * The same call twice changes nothing the second time.
 */
export const SaveFilterRequest = z.strictObject({ name: SavedFilterName, address: SavedFilterAddress });
export type SaveFilterRequest = z.infer<typeof SaveFilterRequest>;

/** PUT /todo/saved-filters (201 or 200) and DELETE /todo/saved-filters/:filterId (200): the filter, and what happened. */
export const SavedFilterResponse = MessageResponse.extend({ filter: SavedFilter });
export type SavedFilterResponse = z.infer<typeof SavedFilterResponse>;

/** Path parameter of DELETE /todo/saved-filters/:filterId. */
export const SavedFilterIdParams = z.object({ filterId: ObjectIdString });
export type SavedFilterIdParams = z.infer<typeof SavedFilterIdParams>;
