// Storage that cannot take a write (docs/OPERATIONS.md "Full disk"): which errors mean it, the honest 503 they become,
// and the watch readiness asks. No Koa and no database driver here: SQLite stores (the gateway's session
// store) import it through `@tm/service-kit/sqlite`, the error handler and the service app through the index.
import { constants } from 'node:fs';
import { access, statfs } from 'node:fs/promises';
import { ErrorCode } from '@tm/contracts';
import type { Logger } from 'pino';
import { HttpError } from './errors.js';

/** `full`: no room left (disk, quota, the database's size limit); `unwritable`: writes refused for another reason. */
export type StorageFailureKind = 'full' | 'unwritable';

export interface StorageFailure {
  kind: StorageFailureKind;
  /** The driver's own code, for the log: `SQLITE_FULL`, `ENOSPC`, `14031` (MongoDB's OutOfDiskSpace)… */
  code: string | number;
}

export const STORAGE_FULL_MESSAGE = 'Storage is full: the change was not saved. Please try again later.';
export const STORAGE_UNWRITABLE_MESSAGE = 'Storage cannot be written to right now: the change was not saved. Please try again later.';

/**
 * SQLite's extended result codes (better-sqlite3 puts them in `code`) that mean a write did not happen.
 * SQLite reports ENOSPC on a write as SQLITE_FULL, as it does reaching `max_page_count`; any other failed
 * write(2) (EIO, EDQUOT, EFBIG) as SQLITE_IOERR_WRITE. The other IOERR codes kept here are the write side
 * of the VFS: fsync of the file or its folder, truncating the WAL, growing the `-shm` index, deleting a
 * journal. Read, lock and memory errors are not storage being full and stay a 500 (a bug to look at).
 */
const SQLITE_FULL = new Set(['SQLITE_FULL']);
const SQLITE_WRITE_FAILED = new Set([
  'SQLITE_IOERR_WRITE',
  'SQLITE_IOERR_FSYNC',
  'SQLITE_IOERR_DIR_FSYNC',
  'SQLITE_IOERR_TRUNCATE',
  'SQLITE_IOERR_SHMSIZE',
  'SQLITE_IOERR_DELETE',
]);
/** Node's errno names (fs calls): no space, over quota; a read-only filesystem. */
const ERRNO_FULL = new Set(['ENOSPC', 'EDQUOT']);
const ERRNO_UNWRITABLE = new Set(['EROFS']);
/**
 * MongoDB's server error code OutOfDiskSpace (src/mongo/base/error_codes.yml; the manual's "Error Codes"),
 * which the official driver surfaces unchanged as `code`/`codeName` of a MongoServerError (its documented
 * class for errors the server returned), and in `writeErrors` of a MongoBulkWriteError, its subclass.
 */
const MONGO_OUT_OF_DISK_SPACE = { code: 14031, codeName: 'OutOfDiskSpace' } as const;

/** How far down `cause` an error is searched (a wrapper of a wrapper is as deep as this project goes). */
const MAX_CAUSE_DEPTH = 5;

interface MaybeCoded {
  code?: unknown;
  codeName?: unknown;
  writeErrors?: unknown;
  cause?: unknown;
}

/** True when `error` is an instance of a class named `name` (the driver is not imported here: the gateway has none). */
function isInstanceOfClassNamed(error: object, name: string): boolean {
  for (let proto: unknown = Object.getPrototypeOf(error); proto; proto = Object.getPrototypeOf(proto)) {
    if ((proto as { constructor?: { name?: unknown } }).constructor?.name === name) return true;
  }
  return false;
}

function isMongoOutOfDiskSpace(error: MaybeCoded): boolean {
  if (Number(error.code) === MONGO_OUT_OF_DISK_SPACE.code || error.codeName === MONGO_OUT_OF_DISK_SPACE.codeName) return true;
  return Array.isArray(error.writeErrors) && error.writeErrors.some((write: MaybeCoded | null | undefined) => isMongoOutOfDiskSpace(write ?? {}));
}

/** The storage failure `error` itself reports (its `cause` aside), if any. */
function ownFailure(error: unknown): StorageFailure | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const { code } = error as MaybeCoded;
  if (typeof code === 'string') {
    if (SQLITE_FULL.has(code) || ERRNO_FULL.has(code)) return { kind: 'full', code };
    if (SQLITE_WRITE_FAILED.has(code) || code.startsWith('SQLITE_READONLY') || ERRNO_UNWRITABLE.has(code)) return { kind: 'unwritable', code };
  }
  if (isInstanceOfClassNamed(error, 'MongoServerError') && isMongoOutOfDiskSpace(error)) {
    return { kind: 'full', code: MONGO_OUT_OF_DISK_SPACE.code };
  }
  return undefined;
}

/**
 * Whether `error` (or an error it wraps as its `cause`, as the gateway's "sessions unavailable" does) means
 * the storage refused a write: which kind, with the driver's code. Undefined for every other error.
 */
export function storageFailureOf(error: unknown): StorageFailure | undefined {
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && current !== undefined && current !== null; depth += 1) {
    const failure = ownFailure(current);
    if (failure) return failure;
    current = (current as MaybeCoded).cause;
  }
  return undefined;
}

/** 503 `STORAGE.NOT_WRITABLE`: what a request that met a {@link StorageFailure} answers. */
export class StorageNotWritableError extends HttpError {
  constructor(readonly failure: StorageFailure) {
    super(503, failure.kind === 'full' ? STORAGE_FULL_MESSAGE : STORAGE_UNWRITABLE_MESSAGE, ErrorCode.storageNotWritable);
  }
}

/**
 * Below this much free space in the data folder, a SQLite store counts as unable to write. An add in
 * svc-todos appends about 7 pages to the WAL (the row, its two indexes, the change event, its two indexes,
 * the AUTOINCREMENT counter: ≈ 29 KiB at 4 KiB pages plus 24-byte frame headers), a signup or a session
 * save 3–4 pages; the WAL grows to about 1000 pages (≈ 4 MiB) before the automatic checkpoint copies them
 * into the database file, which then grows by the pages that are new. 1 MiB is about 35 adds of WAL growth,
 * or a bulk action over some 250 pages: above it the next request's write fits, below it one may not.
 */
export const DEFAULT_MIN_FREE_BYTES = 1024 * 1024;
/**
 * A write refused for lack of space (or any {@link StorageFailure}) keeps the store "cannot write" this
 * long. The Kubernetes manifests probe readiness every 5 s and act after 2 failures (10 s): 15 s lets two
 * probes see a single failure; a store that writes again is ready again at most 15 s later. While failures
 * keep coming, it stays down.
 */
export const DEFAULT_FAILURE_HOLD_MS = 15_000;

export interface StorageWatchOptions {
  /**
   * The folder of the SQLite files (DATA_DIR). When set, its free space (statfs) and its writability count,
   * and "cannot write" makes the process not ready. Leave it unset for MongoDB: its disk is the server's.
   */
  dataDir?: string;
  /** Free space below which the data folder counts as full (default {@link DEFAULT_MIN_FREE_BYTES}). */
  minFreeBytes?: number;
  /** How long a storage failure counts (default {@link DEFAULT_FAILURE_HOLD_MS}). */
  failureHoldMs?: number;
  /** Told when the store stops or starts taking writes again (once per change, with the reason). */
  logger?: Logger;
  /** The clock (tests). */
  now?: () => number;
}

export interface StorageState {
  /** Whether the store can take writes, as far as this process can tell. */
  writable: boolean;
  /** Why not, for people (empty when writable). */
  reasons: string[];
  /** Free bytes in the data folder, when one is watched. */
  freeBytes?: number;
}

/**
 * Whether a store can take writes: it cannot while a write failed with a {@link StorageFailure} less than
 * `failureHoldMs` ago, or (SQLite) while its data folder has less than `minFreeBytes` free or is read-only.
 * The last two are measured at every check, so once space is back it turns writable by itself, without a
 * write having to try first; a failure that leaves the space alone (a failed fsync, a read-only file) ends
 * with its hold.
 */
export class StorageWatch {
  private lastFailure: { at: number; failure: StorageFailure } | undefined;
  private wasWritable = true;
  private readonly now: () => number;
  readonly minFreeBytes: number;
  readonly failureHoldMs: number;

  constructor(private readonly options: StorageWatchOptions = {}) {
    this.now = options.now ?? Date.now;
    this.minFreeBytes = options.minFreeBytes ?? DEFAULT_MIN_FREE_BYTES;
    this.failureHoldMs = options.failureHoldMs ?? DEFAULT_FAILURE_HOLD_MS;
  }

  /** True when the storage is this process's own data folder (SQLite): then "cannot write" means "not ready". */
  get local(): boolean {
    return this.options.dataDir !== undefined;
  }

  /** Records a storage failure a write met. */
  failed(failure: StorageFailure): void {
    this.lastFailure = { at: this.now(), failure };
  }

  /** Records `error` when it is a storage failure; returns what it found. */
  note(error: unknown): StorageFailure | undefined {
    const failure = storageFailureOf(error);
    if (failure) this.failed(failure);
    return failure;
  }

  async check(): Promise<StorageState> {
    const reasons: string[] = [];
    const recent = this.lastFailure;
    if (recent && this.now() - recent.at < this.failureHoldMs) {
      reasons.push(`a write failed ${Math.round((this.now() - recent.at) / 1000)} s ago (${recent.failure.code})`);
    }
    const { dataDir } = this.options;
    let freeBytes: number | undefined;
    if (dataDir !== undefined) {
      try {
        const stats = await statfs(dataDir);
        freeBytes = stats.bavail * stats.bsize;
        if (freeBytes < this.minFreeBytes) reasons.push(`the data folder has ${freeBytes} bytes free, less than ${this.minFreeBytes}`);
        await access(dataDir, constants.W_OK);
      } catch (error) {
        reasons.push(`the data folder cannot be written to (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      }
    }
    const writable = reasons.length === 0;
    this.logChange(writable, reasons, freeBytes);
    return { writable, reasons, ...(freeBytes === undefined ? {} : { freeBytes }) };
  }

  private logChange(writable: boolean, reasons: string[], freeBytes: number | undefined): void {
    if (writable === this.wasWritable) return;
    this.wasWritable = writable;
    const { logger, dataDir } = this.options;
    if (writable) logger?.info({ dataDir, freeBytes }, 'storage takes writes again');
    else logger?.warn({ dataDir, freeBytes, reasons }, `storage cannot take writes: ${reasons.join('; ')}`);
  }
}
