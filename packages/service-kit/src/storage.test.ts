// Storage that cannot take a write (docs/OPERATIONS.md "Full disk"): which errors count, the 503 they become in every
// app built on the kit, and what readiness says. The errors are real wherever this machine can provoke
// them: SQLITE_FULL from `max_page_count`, SQLITE_READONLY from a read-only connection, SQLITE_BUSY from a
// second writer, ENOSPC from /dev/full, the MongoDB driver's own classes. A full data folder for real (a
// small tmpfs) is in the services' full-disk suites.
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { ErrorBody, ErrorCode } from '@tm/contracts';
import Database from 'better-sqlite3';
import Koa from 'koa';
import { MongoBulkWriteError, MongoNetworkError, MongoServerError, type BulkWriteResult, type WriteError } from 'mongodb';
import { z } from 'zod';
import { errorHandler } from './error-handler.middleware.js';
import { ConflictError, ServiceUnavailableError } from './errors.js';
import { signIdentity } from './identity.js';
import { createLogger } from './logger.js';
import { apiRouter } from './router.js';
import { createServiceApp } from './service-app.js';
import {
  DEFAULT_FAILURE_HOLD_MS,
  DEFAULT_MIN_FREE_BYTES,
  STORAGE_FULL_MESSAGE,
  STORAGE_UNWRITABLE_MESSAGE,
  StorageNotWritableError,
  StorageWatch,
  storageFailureOf,
} from './storage.js';

const TEST_SECRET = 'storage-test-secret-0123456789abcdef0123456789';
// Strict: a storage error body carries nothing else (no SQL, no path, no driver message).
const StrictErrorBody = z.strictObject(ErrorBody.shape);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tm-kit-storage-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * better-sqlite3's error, by name: its native addon keeps the SqliteError class of the first test file that
 * loaded it in this jest worker, so `instanceof` against this file's copy of the class is not reliable.
 */
function expectSqliteError(error: unknown, code: string): void {
  expect({ name: (error as Error).name, code: (error as { code?: unknown }).code }).toEqual({ name: 'SqliteError', code });
}

/** What a real statement throws. */
function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** A database that holds two pages at most: the next insert needs a third (real SQLITE_FULL). */
function cappedDatabase(file = path.join(dir, 'capped.sqlite')): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (v TEXT NOT NULL)');
  db.pragma('max_page_count = 2');
  return db;
}

let capped = 0;
function fullError(): unknown {
  capped += 1;
  const db = cappedDatabase(path.join(dir, `full-${capped}.sqlite`));
  try {
    return thrownBy(() => {
      for (let i = 0; i < 100; i += 1) db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(1000));
    });
  } finally {
    db.close();
  }
}

/** A Node system error as fs raises it (code, negative errno, syscall, path), for the errno names no machine here can provoke. */
function systemError(code: 'EDQUOT' | 'EROFS', message: string): NodeJS.ErrnoException {
  const file = path.join(dir, 'x');
  return Object.assign(new Error(`${code}: ${message}, open '${file}'`), { code, errno: -constants.errno[code], syscall: 'open', path: file });
}

describe('storageFailureOf: the errors that mean storage refused a write', () => {
  it('SQLITE_FULL (a real one: the database reached max_page_count) → full', () => {
    const error = fullError();
    expectSqliteError(error, 'SQLITE_FULL');
    expect(storageFailureOf(error)).toEqual({ kind: 'full', code: 'SQLITE_FULL' });
  });

  it('SQLITE_READONLY (a real one: a write on a read-only connection) → unwritable', () => {
    const file = path.join(dir, 'ro.sqlite');
    new Database(file).exec('CREATE TABLE t (v TEXT)').close();
    const db = new Database(file, { readonly: true });
    try {
      const error = thrownBy(() => db.prepare("INSERT INTO t VALUES ('x')").run());
      expectSqliteError(error, 'SQLITE_READONLY');
      expect(storageFailureOf(error)).toEqual({ kind: 'unwritable', code: 'SQLITE_READONLY' });
    } finally {
      db.close();
    }
  });

  // No test can make the kernel fail an fsync or a truncate on demand: these are better-sqlite3's own
  // error class with the extended codes SQLite gives those failures.
  it.each([
    'SQLITE_IOERR_WRITE',
    'SQLITE_IOERR_FSYNC',
    'SQLITE_IOERR_DIR_FSYNC',
    'SQLITE_IOERR_TRUNCATE',
    'SQLITE_IOERR_SHMSIZE',
    'SQLITE_IOERR_DELETE',
    'SQLITE_READONLY_RECOVERY',
    'SQLITE_READONLY_CANTLOCK',
    'SQLITE_READONLY_ROLLBACK',
    'SQLITE_READONLY_DBMOVED',
    'SQLITE_READONLY_CANTINIT',
    'SQLITE_READONLY_DIRECTORY',
  ])('%s (a write that failed, better-sqlite3 SqliteError) → unwritable', (code) => {
    expect(storageFailureOf(new Database.SqliteError('disk I/O error', code))).toEqual({ kind: 'unwritable', code });
  });

  (existsSync('/dev/full') ? it : it.skip)('ENOSPC (a real one: a write to /dev/full) → full', () => {
    const error = thrownBy(() => writeFileSync('/dev/full', 'x'));
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(storageFailureOf(error)).toEqual({ kind: 'full', code: 'ENOSPC' });
  });

  it('EDQUOT → full, EROFS → unwritable (Node system errors)', () => {
    expect(storageFailureOf(systemError('EDQUOT', 'disk quota exceeded'))).toEqual({ kind: 'full', code: 'EDQUOT' });
    expect(storageFailureOf(systemError('EROFS', 'read-only file system'))).toEqual({ kind: 'unwritable', code: 'EROFS' });
  });

  it("MongoDB's OutOfDiskSpace (14031), as the driver's MongoServerError or in a bulk write's writeErrors → full", () => {
    const server = new MongoServerError({ ok: 0, code: 14031, codeName: 'OutOfDiskSpace', errmsg: 'available disk space is less than required' });
    expect(storageFailureOf(server)).toEqual({ kind: 'full', code: 14031 });
    const byName = new MongoServerError({ ok: 0, codeName: 'OutOfDiskSpace', errmsg: 'out of disk space' });
    expect(storageFailureOf(byName)).toEqual({ kind: 'full', code: 14031 });
    // A bulk write whose first error is another one: the driver puts the first error's code on the whole
    // (its result, a BulkWriteResult the driver alone builds, plays no part here).
    // (The driver exports WriteError as a type only; its `code` getter reads the server's document, as here.)
    const writeErrors = [
      { index: 0, code: 11000, errmsg: 'E11000 duplicate key' },
      { index: 1, code: 14031, errmsg: 'out of disk space' },
    ] as unknown as WriteError[];
    const bulk = new MongoBulkWriteError({ message: 'write failed', code: 11000, writeErrors }, undefined as unknown as BulkWriteResult);
    expect(bulk).toBeInstanceOf(MongoServerError);
    expect(storageFailureOf(bulk)).toEqual({ kind: 'full', code: 14031 });
  });

  it('leaves every other error alone: a real SQLITE_BUSY and SQLITE_CONSTRAINT, read errors, other MongoDB errors, bugs', () => {
    const file = path.join(dir, 'busy.sqlite');
    const holder = new Database(file);
    const other = new Database(file, { timeout: 0 });
    try {
      holder.exec('CREATE TABLE t (v TEXT PRIMARY KEY)');
      holder.exec('BEGIN IMMEDIATE');
      const busy = thrownBy(() => other.prepare("INSERT INTO t VALUES ('x')").run());
      expectSqliteError(busy, 'SQLITE_BUSY');
      expect(storageFailureOf(busy)).toBeUndefined();
      holder.exec("INSERT INTO t VALUES ('x'); COMMIT");
      const constraint = thrownBy(() => holder.prepare("INSERT INTO t VALUES ('x')").run());
      expect((constraint as { code: string }).code).toMatch(/^SQLITE_CONSTRAINT/);
      expect(storageFailureOf(constraint)).toBeUndefined();
    } finally {
      other.close();
      holder.close();
    }
    expect(storageFailureOf(new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_READ'))).toBeUndefined();
    expect(storageFailureOf(new MongoServerError({ ok: 0, code: 11000, codeName: 'DuplicateKey', errmsg: 'E11000' }))).toBeUndefined();
    expect(storageFailureOf(new MongoNetworkError('connection reset'))).toBeUndefined();
    // A plain object with MongoDB's number is not the driver's MongoServerError.
    expect(storageFailureOf({ code: 14031 })).toBeUndefined();
    expect(storageFailureOf(new TypeError('x is undefined'))).toBeUndefined();
    for (const value of [undefined, null, 'SQLITE_FULL', 28]) expect(storageFailureOf(value)).toBeUndefined();
  });

  it("finds a failure wrapped as a `cause` (the gateway's \"sessions unavailable\"), and stops on a cycle", () => {
    const wrapped = new ServiceUnavailableError('Sessions are temporarily unavailable, please try again');
    wrapped.cause = fullError();
    expect(storageFailureOf(wrapped)).toEqual({ kind: 'full', code: 'SQLITE_FULL' });
    const loop = new Error('a') as Error & { cause?: unknown };
    loop.cause = loop;
    expect(storageFailureOf(loop)).toBeUndefined();
  });
});

describe('StorageWatch: whether the store can take writes', () => {
  it('defaults: 1 MiB of free space, a failure counts for 15 s', () => {
    expect(DEFAULT_MIN_FREE_BYTES).toBe(1024 * 1024);
    expect(DEFAULT_FAILURE_HOLD_MS).toBe(15_000);
    const watch = new StorageWatch();
    expect({ min: watch.minFreeBytes, hold: watch.failureHoldMs, local: watch.local }).toEqual({ min: DEFAULT_MIN_FREE_BYTES, hold: DEFAULT_FAILURE_HOLD_MS, local: false });
  });

  it('a storage failure counts for the hold, then ends by itself; other errors never count', async () => {
    let now = 1_000_000;
    const watch = new StorageWatch({ failureHoldMs: 15_000, now: () => now });
    expect(watch.note(new Error('a bug'))).toBeUndefined();
    expect(await watch.check()).toEqual({ writable: true, reasons: [] });
    expect(watch.note(fullError())).toEqual({ kind: 'full', code: 'SQLITE_FULL' });
    now += 14_999;
    expect(await watch.check()).toEqual({ writable: false, reasons: ['a write failed 15 s ago (SQLITE_FULL)'] });
    now += 1;
    expect(await watch.check()).toEqual({ writable: true, reasons: [] });
  });

  it('a data folder with less free space than the threshold cannot take writes; measured at every check', async () => {
    const full = await new StorageWatch({ dataDir: dir, minFreeBytes: Number.MAX_SAFE_INTEGER }).check();
    expect(full.writable).toBe(false);
    expect(full.reasons).toEqual([`the data folder has ${full.freeBytes} bytes free, less than ${Number.MAX_SAFE_INTEGER}`]);
    const roomy = await new StorageWatch({ dataDir: dir, minFreeBytes: 0 }).check();
    expect(roomy).toEqual({ writable: true, reasons: [], freeBytes: expect.any(Number) });
    expect(roomy.freeBytes).toBeGreaterThan(0);
  });

  it('a data folder that is gone cannot take writes', async () => {
    const state = await new StorageWatch({ dataDir: path.join(dir, 'missing'), minFreeBytes: 0 }).check();
    expect(state).toEqual({ writable: false, reasons: ['the data folder cannot be written to (ENOENT)'] });
  });

  it('logs each change once: a warning with the reason, then that writes work again', async () => {
    const out = new PassThrough();
    let written = '';
    out.on('data', (chunk: Buffer) => (written += chunk.toString()));
    let now = 0;
    const watch = new StorageWatch({ failureHoldMs: 1000, now: () => now, logger: createLogger('svc-test', 'info', 'json', out) });
    watch.note(fullError());
    await watch.check();
    await watch.check();
    now = 1000;
    await watch.check();
    await watch.check();
    const lines = written.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: 40, msg: 'storage cannot take writes: a write failed 0 s ago (SQLITE_FULL)' },
      { level: 30, msg: 'storage takes writes again' },
    ]);
  });
});

async function listen(app: Koa) {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A request as the gateway sends it: signed, with its request id. */
async function signedPost(url: string, pathname: string, requestId: string) {
  const headers = { 'x-request-id': requestId, ...signIdentity(TEST_SECRET, { method: 'POST', url: pathname, userId: '', requestId }) };
  const answer = await fetch(url + pathname, { method: 'POST', headers });
  return { status: answer.status, body: await answer.json() };
}

const readyz = async (url: string) => {
  const answer = await fetch(`${url}/readyz`);
  return { status: answer.status, body: await answer.json() };
};

describe('a service app (createServiceApp) whose store refuses a write', () => {
  let db: Database.Database;
  let lines: Record<string, unknown>[];
  let server: Awaited<ReturnType<typeof listen>>;
  let now: number;

  /** A service on a capped SQLite file: /write inserts until the database is full, /bug throws. */
  async function start(storage: { dataDir?: string }) {
    db = cappedDatabase();
    lines = [];
    now = 0;
    const out = new PassThrough();
    let pending = '';
    out.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const part of parts) if (part) lines.push(JSON.parse(part) as Record<string, unknown>);
    });
    const router = apiRouter();
    router.post('/write', (ctx) => {
      for (let i = 0; i < 100; i += 1) db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(1000));
      ctx.body = { message: 'never' };
    });
    router.post('/readonly', () => {
      throw new Database.SqliteError('attempt to write a readonly database', 'SQLITE_READONLY');
    });
    router.post('/conflict', () => {
      throw Object.assign(new ConflictError('Email already registered', ErrorCode.emailTaken), { cause: fullError() });
    });
    router.post('/explicit', () => {
      throw new StorageNotWritableError({ kind: 'full', code: 'ENOSPC' });
    });
    router.post('/bug', () => {
      throw new TypeError('x is undefined');
    });
    const { app } = createServiceApp({
      name: 'svc-test',
      logger: createLogger('svc-test', 'info', 'json', out),
      internalSecret: TEST_SECRET,
      ready: async () => true,
      storage: { ...storage, minFreeBytes: 0, failureHoldMs: 15_000, now: () => now },
      routes: [router],
    });
    server = await listen(app);
  }

  afterEach(async () => {
    await server.close();
    db.close();
  });

  it('answers 503 STORAGE.NOT_WRITABLE "Storage is full…", logs it at error level with the request id, and readiness fails until the hold ends', async () => {
    await start({ dataDir: dir });
    expect(await readyz(server.url)).toEqual({ status: 200, body: { status: 'ready', checks: { store: 'up', writes: 'up' } } });
    const requestId = 'req-storage-full-0001';
    const answer = await signedPost(server.url, '/write', requestId);
    expect(answer).toEqual({ status: 503, body: { message: STORAGE_FULL_MESSAGE, code: ErrorCode.storageNotWritable } });
    StrictErrorBody.parse(answer.body);
    const logged = lines.find((line) => line.msg === 'storage refused the write: the change was not saved');
    expect(logged).toMatchObject({ level: 50, req: { id: requestId }, storage: { kind: 'full', code: 'SQLITE_FULL' }, err: { code: 'SQLITE_FULL' } });

    expect(await readyz(server.url)).toEqual({ status: 503, body: { status: 'unavailable', checks: { store: 'up', writes: 'down' } } });
    now += 15_000;
    expect(await readyz(server.url)).toEqual({ status: 200, body: { status: 'ready', checks: { store: 'up', writes: 'up' } } });
  });

  it('says "cannot be written to" for a read-only store, and a StorageNotWritableError thrown on purpose is answered the same way', async () => {
    await start({ dataDir: dir });
    expect(await signedPost(server.url, '/readonly', 'req-storage-readonly-0002')).toEqual({ status: 503, body: { message: STORAGE_UNWRITABLE_MESSAGE, code: ErrorCode.storageNotWritable } });
    expect(await signedPost(server.url, '/explicit', 'req-storage-explicit-0003')).toEqual({ status: 503, body: { message: STORAGE_FULL_MESSAGE, code: ErrorCode.storageNotWritable } });
    expect(lines.filter((line) => line.msg === 'storage refused the write: the change was not saved').map((line) => line.storage)).toEqual([
      { kind: 'unwritable', code: 'SQLITE_READONLY' },
      { kind: 'full', code: 'ENOSPC' },
    ]);
  });

  it('keeps a 4xx a 4xx whatever it wraps, and a bug a 500', async () => {
    await start({ dataDir: dir });
    expect(await signedPost(server.url, '/conflict', 'req-storage-conflict-0004')).toEqual({ status: 409, body: { message: 'Email already registered', code: ErrorCode.emailTaken } });
    expect(await signedPost(server.url, '/bug', 'req-storage-bug-0005')).toEqual({ status: 500, body: { message: 'Internal server error', code: ErrorCode.internal } });
    expect(await readyz(server.url)).toMatchObject({ status: 200 });
  });

  it('without a data folder (MongoDB): the failure shows as writes down, status degraded, still 200', async () => {
    await start({});
    expect((await signedPost(server.url, '/write', 'req-storage-mongo-0006')).status).toBe(503);
    expect(await readyz(server.url)).toEqual({ status: 200, body: { status: 'degraded', checks: { store: 'up', writes: 'down' } } });
    now += 15_000;
    expect(await readyz(server.url)).toEqual({ status: 200, body: { status: 'ready', checks: { store: 'up', writes: 'up' } } });
  });
});

describe('errorHandler on its own (the gateway uses it without a storage watch)', () => {
  it('maps the failure all the same', async () => {
    const app = new Koa();
    app.use(async (ctx, next) => {
      ctx.log = createLogger('gateway-test', 'silent');
      await next();
    });
    app.use(errorHandler());
    app.use(() => {
      const error = new ServiceUnavailableError('Sessions are temporarily unavailable, please try again');
      error.cause = fullError();
      throw error;
    });
    const started = await listen(app);
    try {
      const answer = await fetch(`${started.url}/api/user/login`, { method: 'POST' });
      expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 503, body: { message: STORAGE_FULL_MESSAGE, code: ErrorCode.storageNotWritable } });
    } finally {
      await started.close();
    }
  });
});
