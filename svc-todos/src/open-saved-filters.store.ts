import { MongoSavedFiltersStore } from './mongo-saved-filters.store.js';
import type { SavedFiltersRepository } from './saved-filters.repository.js';
import { SqliteSavedFiltersStore, type SqliteSavedFiltersOptions } from './sqlite-saved-filters.store.js';

/** Opens the saved filters where the tasks are (open-todos.store.ts chooses alike): MongoDB with a URL, else todos.sqlite. */
export async function openSavedFiltersStore({ mongoUrl, mongoDb, ...sqlite }: SqliteSavedFiltersOptions & { mongoUrl?: string; mongoDb: string }): Promise<SavedFiltersRepository> {
  if (mongoUrl) return MongoSavedFiltersStore.open({ url: mongoUrl, dbName: mongoDb });
  return SqliteSavedFiltersStore.open(sqlite);
}
