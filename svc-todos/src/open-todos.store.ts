import { MongoTodosStore } from './mongo-todos.store.js';
import { SqliteTodosStore, type SqliteTodosOptions } from './sqlite-todos.store.js';
import type { StoreOptions, TodosRepository } from './todos.repository.js';

export interface OpenTodosStoreOptions extends StoreOptions {
  /** Folder of the embedded SQLite file; used when no MongoDB URL is given. */
  dataDir: string;
  /** When set, the tasks live in MongoDB instead (docs/ARCHITECTURE.md, "Storage"); it must be a replica set. */
  mongoUrl?: string;
  mongoDb: string;
  mongoServerSelectionTimeoutMS?: number;
  /** The start-up's bound on opening the SQLite file (server.ts). */
  opening?: SqliteTodosOptions['opening'];
}

/** Opens the store the configuration asks for: MongoDB when a URL is given, else the embedded SQLite file. */
export async function openTodosStore(options: OpenTodosStoreOptions): Promise<TodosRepository> {
  const { dataDir, mongoUrl, mongoDb, mongoServerSelectionTimeoutMS, opening, ...storeOptions } = options;
  if (mongoUrl) {
    return MongoTodosStore.open({ url: mongoUrl, dbName: mongoDb, serverSelectionTimeoutMS: mongoServerSelectionTimeoutMS, ...storeOptions });
  }
  return SqliteTodosStore.open({ dataDir, opening, ...storeOptions });
}
