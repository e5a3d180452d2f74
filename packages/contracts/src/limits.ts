/**
 * Limits the spec leaves open (docs/PRODUCT.md §5, §9: "not shown"); these are ours, and every service and client
 * reads them from here.
 */
export const LIMITS = {
  fullName: { min: 1, max: 100 },
  email: { max: 254 },
  password: { min: 8, max: 128 },
  todoTitle: { min: 1, max: 500 },
  /** A list's name (docs/PRODUCT.md §10.19), after the title's trimming. */
  listName: { min: 1, max: 60 },
  /** The lists one person may have, archived ones included (§10.19). */
  lists: 200,
  /** A label's name (docs/PRODUCT.md §10.20), and how many labels one task may carry. */
  labelName: { min: 1, max: 40 },
  labelsPerTask: 20,
  /**
   * Saved filters (docs/PRODUCT.md §10.20): a name's length after the title's trimming, how many one person
   * keeps, and the longest address one may hold (a list, the filters and a search of searchQuery's length).
   */
  savedFilterName: { min: 1, max: 60 },
  savedFilters: 50,
  savedFilterAddress: { max: 600 },
  /** A search's words (docs/PRODUCT.md §10.22), as the search field and a saved filter keep them. */
  searchQuery: { max: 200 },
  /** A task's note (docs/PRODUCT.md §10.21), after trimming, and how many subtasks one task may have. */
  note: { max: 10_000 },
  subtasksPerTask: 100,
  /** An order key (list-rules.ts): thousands of moves between the same two neighbours stay far below it. */
  orderKey: { max: 128 },
  /** An IANA time zone name (docs/PRODUCT.md §10.10, §10.14): the longest in the database has 32 characters. */
  timeZone: { max: 64 },
  /**
   * Largest JSON request body the gateway and the services accept, but for a sync call's and an import's: a note
   * at its longest (10 000 characters, 3 bytes each in UTF-8 for most scripts, docs/PRODUCT.md §10.21) goes in one
   * update with room to spare, as does a checklist of 100 subtasks of ordinary length.
   */
  bodyBytes: 64 * 1024,
  /**
   * A sync call (POST /todo/sync, docs/PRODUCT.md §10.4): at most `commands` queued changes in one call, in a
   * body of at most `bodyBytes` (500 edits of 400-character titles fit): a day offline usually goes in one
   * round trip, which a slow phone network makes the costliest part of catching up (docs/PERFORMANCE.md).
   */
  sync: { commands: 500, bodyBytes: 256 * 1024 },
  /** Change events in one answer of GET /todo/changes; `more` says when there are others after them. */
  changesPage: 500,
  /**
   * An import (POST /todo/import, docs/PRODUCT.md §10.23): the largest body (the file's text inside JSON), the
   * most tasks one file may bring (subtasks not counted), and how many of a refused file's problems are listed.
   */
  import: { bodyBytes: 20 * 1024 * 1024, tasks: 20_000, problemsShown: 50 },
} as const;

/**
 * How long a task's change history keeps the values each change replaced (docs/PRODUCT.md §10.4): 30 days,
 * then the sweep forgets them.
 */
export const HISTORY_RETENTION_MS = 30 * 24 * 60 * 60_000;

/**
 * A task id a sync command may name before the server has answered the add that makes it: `tmp-` and the id
 * of that add command (docs/PRODUCT.md §10.4). The server reads it as the task that command added.
 */
export const TEMP_ID_PREFIX = 'tmp-';
/** A sync command's id: its `Idempotency-Key`, also the tail of the temporary id of the task an add makes. */
export const COMMAND_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The largest request body at `path` (under /api or not): a sync call's limit for POST …/todo/sync, an import's
 * for POST …/todo/import (docs/PRODUCT.md §10.23), else LIMITS.bodyBytes.
 */
export function bodyLimitOf(path: string): number {
  if (path.endsWith('/todo/import')) return LIMITS.import.bodyBytes;
  return path.endsWith('/todo/sync') ? LIMITS.sync.bodyBytes : LIMITS.bodyBytes;
}

/** Browser-side request timeout (docs/PRODUCT.md §9); the gateway answers 504 before it. */
export const CLIENT_TIMEOUT_MS = 10_000;

/** Cookie and header names of the double-submit XSRF protection (docs/PRODUCT.md §9). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/** Base path of every call, on the gateway's origin (docs/PRODUCT.md §7). */
export const API_BASE = '/api';

/**
 * Header a page sends with its writes: a random id per page (1–64 of A–Z a–z 0–9 _ -). The change events
 * carry it back as `origin`, so the page that made a change does not apply it twice (docs/PRODUCT.md §10.11.5).
 */
export const CLIENT_ID_HEADER = 'X-Client-Id';
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Header a client may send with a task write so that a retry is applied once (docs/PRODUCT.md §7): a unique
 * string per user action, 1–255 printable ASCII characters (SECURITY.md "Limits and timeouts"). The same key
 * from the same user within 24 h is answered as the first call was; with another request it is refused (422).
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

/** Query parameter of GET /todo/events giving the cursor to start after (first connect; `Last-Event-ID` wins). */
export const EVENTS_AFTER_PARAM = 'after';

/** How long the toast offers Undo after a delete (docs/PRODUCT.md §10.11.4); the server keeps the task restorable longer. */
export const UNDO_WINDOW_MS = 5_000;

/** The most reminders a task may have (docs/PRODUCT.md §10.17). */
export const REMINDERS_MAX = 10;
/** The earliest a reminder may come: four weeks before the due time, in minutes (§10.17). */
export const REMINDER_MAX_MINUTES = 4 * 7 * 24 * 60;
