import { openMongoUsersStore } from './mongo-users.store.js';
import { openSqliteUsersStore } from './sqlite-users.store.js';
import type { UsersRepository } from './users.repository.js';

export interface UsersStoreOptions {
  /** MongoDB connection string; without it the embedded SQLite store is used. */
  mongoUrl?: string | undefined;
  mongoDb: string;
  /** Folder of the SQLite file. */
  dataDir: string;
}

/** The configured users store: MongoDB when a URL is given (ARCHITECTURE: Storage), else SQLite in `dataDir`. */
export async function openUsersStore({ mongoUrl, mongoDb, dataDir }: UsersStoreOptions): Promise<UsersRepository> {
  if (mongoUrl) return openMongoUsersStore({ url: mongoUrl, dbName: mongoDb });
  return openSqliteUsersStore(dataDir);
}
