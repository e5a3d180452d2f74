import path from 'node:path';
import { bySavedFilterName, type SavedFilter, type SaveFilterRequest } from '@tm/contracts';
import { closeSqlite, openSqlite, pingSqlite, type OpenSqliteOptions, type SqliteDatabase } from '@tm/service-kit/sqlite';
import { ObjectId } from 'mongodb';
import { decideSave } from './saved-filters.domain.js';
import type { SavedFiltersRepository, SaveOutcome } from './saved-filters.repository.js';
import { SQLITE_FILE } from './sqlite-todos.store.js';

// Saved filters (docs/PRODUCT.md §10.20) in the tasks' own file, todos.sqlite: a table of their own, so the
// task store's schema and migrations stay as they are. A new table needs no migration.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS saved_filters (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  name TEXT NOT NULL,
  -- The name in lower case: one filter per name and person, case aside.
  name_key TEXT NOT NULL,
  address TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS saved_filters_user_name ON saved_filters (user_id, name_key);
`;

interface Row {
  id: string;
  name: string;
  name_key: string;
  address: string;
  created_at: number;
  updated_at: number;
}

const filterOf = (row: Row): SavedFilter => ({ _id: row.id, name: row.name, address: row.address, createdAt: new Date(row.created_at).toISOString(), updatedAt: new Date(row.updated_at).toISOString() });

export interface SqliteSavedFiltersOptions extends Pick<OpenSqliteOptions, 'busyTimeoutMs' | 'opening'> {
  dataDir: string;
}

export class SqliteSavedFiltersStore implements SavedFiltersRepository {
  private constructor(private readonly db: SqliteDatabase) {}

  static open({ dataDir, busyTimeoutMs, opening }: SqliteSavedFiltersOptions): SqliteSavedFiltersStore {
    return new SqliteSavedFiltersStore(openSqlite(path.join(dataDir, SQLITE_FILE), { busyTimeoutMs, opening, setup: (db) => db.exec(SCHEMA) }));
  }

  private rowsOf(userId: string): Row[] {
    return this.db.prepare<[string], Row>('SELECT id, name, name_key, address, created_at, updated_at FROM saved_filters WHERE user_id = ?').all(userId);
  }

  async list(userId: string): Promise<SavedFilter[]> {
    return this.rowsOf(userId).map(filterOf).sort(bySavedFilterName);
  }

  async save(userId: string, input: SaveFilterRequest): Promise<SaveOutcome> {
    return this.db
      .transaction((): SaveOutcome => {
        const rows = this.rowsOf(userId);
        const decision = decideSave(
          rows.map((row) => ({ id: row.id, nameKey: row.name_key })),
          input,
        );
        const now = Date.now();
        switch (decision.kind) {
          case 'full':
            return decision;
          case 'update': {
            this.db.prepare('UPDATE saved_filters SET name = ?, address = ?, updated_at = ? WHERE id = ? AND user_id = ?').run(input.name, input.address, now, decision.id, userId);
            const before = rows.find((row) => row.id === decision.id);
            if (!before) throw new Error('a saved filter read in the transaction was not found by its update');
            return { kind: 'updated', filter: filterOf({ ...before, name: input.name, address: input.address, updated_at: now }) };
          }
          case 'insert': {
            const id = new ObjectId().toHexString();
            this.db
              .prepare('INSERT INTO saved_filters (id, user_id, name, name_key, address, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
              .run(id, userId, input.name, decision.nameKey, input.address, now, now);
            return { kind: 'created', filter: filterOf({ id, name: input.name, name_key: decision.nameKey, address: input.address, created_at: now, updated_at: now }) };
          }
        }
      })
      .immediate();
  }

  async remove(userId: string, id: string): Promise<SavedFilter | null> {
    const row = this.db.prepare<[string, string], Row>('DELETE FROM saved_filters WHERE id = ? AND user_id = ? RETURNING id, name, name_key, address, created_at, updated_at').get(id, userId);
    return row ? filterOf(row) : null;
  }

  async purge(userId: string): Promise<number> {
    return this.db.prepare('DELETE FROM saved_filters WHERE user_id = ?').run(userId).changes;
  }

  async ping(): Promise<boolean> {
    return pingSqlite(this.db);
  }

  async close(): Promise<void> {
    closeSqlite(this.db);
  }
}
