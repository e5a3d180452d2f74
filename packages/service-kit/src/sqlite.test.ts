import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closeSqlite, columnsOf, openSqlite, pingSqlite } from './sqlite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tm-kit-sqlite-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openSqlite', () => {
  it('creates the file and its folder, with the pragmas every store relies on', () => {
    const file = path.join(dir, 'nested', 'data', 'x.sqlite');
    const db = openSqlite(file, { busyTimeoutMs: 1234.9 });
    try {
      expect(existsSync(file)).toBe(true);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      // NORMAL is 1.
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(1234);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      closeSqlite(db);
    }
  });

  it('waits 5 s for another connection by default', () => {
    const db = openSqlite(path.join(dir, 'x.sqlite'));
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    closeSqlite(db);
  });

  it('within a start-up bound, says what each step waits on and keeps the usual busy timeout once open', () => {
    const file = path.join(dir, 'x.sqlite');
    const said: string[] = [];
    const db = openSqlite(file, { busyTimeoutMs: 2000, setup: () => undefined, opening: { deadline: Date.now() + 60_000, waitingOn: (what) => said.push(what) } });
    try {
      expect(said).toEqual([
        `the file system, to open ${file}`,
        `a lock on ${file} held by another connection (to switch it to WAL), or the disk`,
        `the write lock of ${file} held by another connection (to create or migrate its schema), or the disk`,
      ]);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(2000);
    } finally {
      closeSqlite(db);
    }
  });

  it('within a start-up bound that has passed, a write lock held by another connection is not waited for, and is named', () => {
    const file = path.join(dir, 'x.sqlite');
    const other = openSqlite(file);
    other.exec('BEGIN IMMEDIATE');
    const said: string[] = [];
    try {
      let error: unknown;
      try {
        closeSqlite(openSqlite(file, { setup: () => undefined, opening: { deadline: Date.now() - 1, waitingOn: (what) => said.push(what) } }));
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ code: 'SQLITE_BUSY' });
      expect(said.at(-1)).toBe(`the write lock of ${file} held by another connection (to create or migrate its schema)`);
    } finally {
      other.exec('ROLLBACK');
      closeSqlite(other);
    }
  });

  it('runs setup in one transaction: a failing setup leaves nothing behind and closes the database', () => {
    const file = path.join(dir, 'x.sqlite');
    expect(() =>
      openSqlite(file, {
        setup: (db) => {
          db.exec('CREATE TABLE a (id INTEGER PRIMARY KEY)');
          throw new Error('migration failed');
        },
      }),
    ).toThrow('migration failed');
    const db = openSqlite(file, { setup: (db) => db.exec('CREATE TABLE IF NOT EXISTS b (id INTEGER PRIMARY KEY)') });
    try {
      expect(columnsOf(db, 'a')).toEqual([]);
      expect(columnsOf(db, 'b')).toEqual(['id']);
    } finally {
      closeSqlite(db);
    }
  });

  it('pings while open, fails once closed, and closes twice harmlessly', () => {
    const db = openSqlite(path.join(dir, 'x.sqlite'));
    expect(pingSqlite(db)).toBe(true);
    closeSqlite(db);
    closeSqlite(db);
    expect(() => pingSqlite(db)).toThrow();
  });
});
