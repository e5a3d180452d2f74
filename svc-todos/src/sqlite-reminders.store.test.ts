// What only the SQLite store of the schedule has (docs/ARCHITECTURE.md "Reminders"); the behaviour both stores
// share is reminders.repository.test.ts. The schedule is one file under DATA_DIR, and its name outlives a restart.
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '@tm/test-support';
import { REMINDERS_SQLITE_FILE, SqliteRemindersStore } from './sqlite-reminders.store.js';

describe('SqliteRemindersStore', () => {
  let data: ReturnType<typeof tempDir>;

  beforeEach(() => {
    data = tempDir('tm-reminders-sqlite-');
  });
  afterEach(() => data.remove());

  it('keeps the schedule in reminders.sqlite (WAL) under DATA_DIR, its name made once and kept across restarts', async () => {
    const first = SqliteRemindersStore.open({ dataDir: data.dir });
    const id = first.id;
    await first.close();
    const file = path.join(data.dir, REMINDERS_SQLITE_FILE);
    expect(existsSync(file)).toBe(true);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.prepare('SELECT id FROM reminder_store').all()).toEqual([{ id }]);
    } finally {
      db.close();
    }
    const restarted = SqliteRemindersStore.open({ dataDir: data.dir });
    expect(restarted.id).toBe(id);
    await restarted.close();
  });
});
