import { describeError, http, logFailure } from '@tm/api-client';
import { bySavedFilterName, ROUTES, savedFilterNameKey, type SavedFilter, type SavedFilterResponse, type SavedFiltersResponse, type SaveFilterRequest } from '@tm/contracts';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { offerUndo } from '@tm/web-platform/undo';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

/*
 * Saved filters on the page (docs/PRODUCT.md §10.20 "Saved filters"): read when the lists are shown and again
 * when the window comes back into view (another device may have saved one), written as calls of their own.
 * They are not task writes: saving one needs a connection, and says so at the field when there is none.
 */

export const savedFiltersKey = ['saved-filters'] as const;

const SAVE_FAILED_MESSAGE = 'The filter could not be saved. Please try again.';
const DELETE_FAILED_MESSAGE = 'The filter could not be deleted. Please try again.';

const EMPTY: SavedFilter[] = [];

async function readSavedFilters(signal: AbortSignal): Promise<SavedFilter[]> {
  const answer = await http.request<SavedFiltersResponse>({ method: ROUTES.savedFilters.method, url: ROUTES.savedFilters.path, signal });
  return answer.data.filters;
}

/** The person's saved filters, by name; empty until they have arrived, and where they cannot be read. */
export function useSavedFilters(): SavedFilter[] {
  const query = useQuery({ queryKey: savedFiltersKey, queryFn: ({ signal }) => readSavedFilters(signal), refetchOnWindowFocus: true, retry: false });
  return query.data ?? EMPTY;
}

/** The cached saved filters with `filter` in place of the one of its id or name, by name as the server lists them. */
function withFilter(queryClient: QueryClient, filter: SavedFilter): void {
  queryClient.setQueryData<SavedFilter[]>(savedFiltersKey, (filters = []) =>
    [...filters.filter((entry) => entry._id !== filter._id && savedFilterNameKey(entry.name) !== savedFilterNameKey(filter.name)), filter].sort(bySavedFilterName),
  );
}

async function saveCall(input: SaveFilterRequest): Promise<SavedFilterResponse> {
  return (await http.request<SavedFilterResponse>({ method: ROUTES.saveFilter.method, url: ROUTES.saveFilter.path, data: input })).data;
}

/** What saving a filter came to: saved (the server's words), or why not, in words for the field. */
export type SaveResult = { ok: true; message: string } | { ok: false; problem: string };

/**
 * Saving the current address under a name: the answer goes into the cached filters and its words into a toast;
 * a refusal (offline, full, a bad name) comes back in words for the dialog's field, nothing else said.
 */
export function useSaveFilter(): (input: SaveFilterRequest) => Promise<SaveResult> {
  const queryClient = useQueryClient();
  return useCallback(
    async (input) => {
      try {
        const { message, filter } = await saveCall(input);
        withFilter(queryClient, filter);
        notifySuccess(message);
        return { ok: true, message };
      } catch (error) {
        logFailure('save a filter', error);
        return { ok: false, problem: describeError(error, SAVE_FAILED_MESSAGE) };
      }
    },
    [queryClient],
  );
}

/**
 * Deleting a saved filter: gone from the list at once; the toast's Undo saves it again under its name and
 * address. A refused delete puts it back and says why.
 */
export function useDeleteSavedFilter(): (filter: SavedFilter) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (filter) => {
      const before = queryClient.getQueryData<SavedFilter[]>(savedFiltersKey);
      queryClient.setQueryData<SavedFilter[]>(savedFiltersKey, (filters = []) => filters.filter((entry) => entry._id !== filter._id));
      const url = ROUTES.deleteSavedFilter.path.replace(':filterId', encodeURIComponent(filter._id));
      http.request<SavedFilterResponse>({ method: ROUTES.deleteSavedFilter.method, url }).then(
        ({ data }) =>
          offerUndo({
            key: `undo-saved-filter:${filter._id}`,
            message: data.message,
            what: `“${filter.name}”`,
            showWhat: true,
            action: 'deleting',
            undo: () =>
              void saveCall({ name: filter.name, address: filter.address }).then(
                (saved) => withFilter(queryClient, saved.filter),
                (error: unknown) => notifyError(describeError(error, SAVE_FAILED_MESSAGE)),
              ),
          }),
        (error: unknown) => {
          if (before) queryClient.setQueryData(savedFiltersKey, before);
          logFailure('delete a saved filter', error);
          notifyError(describeError(error, DELETE_FAILED_MESSAGE));
        },
      );
    },
    [queryClient],
  );
}
