import { MongoUsersStore } from './mongo-users.store.js';
import { SqliteUsersStore, type SqliteUsersOptions } from './sqlite-users.store.js';
import type { UsersRepository } from './users.repository.js';

export interface UsersStoreConfig {
  /** MongoDB connection string; without it the embedded SQLite store is used. */
  mongoUrl?: string | undefined;
  mongoDb: string;
  /** Folder of the SQLite file. */
  dataDir: string;
  /** The start-up's bound on opening the SQLite file (server.ts). */
  opening?: SqliteUsersOptions['opening'];
}

/** The configured users store: MongoDB when a URL is given (docs/ARCHITECTURE.md, "Storage"), else SQLite in `dataDir`. */
export async function openUsersStore({ mongoUrl, mongoDb, dataDir, opening }: UsersStoreConfig): Promise<UsersRepository> {
  if (mongoUrl) return MongoUsersStore.open({ url: mongoUrl, dbName: mongoDb });
  return SqliteUsersStore.open({ dataDir, opening });
}
