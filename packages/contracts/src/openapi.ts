/**
 * The OpenAPI 3.1 description of the public /api (docs/PRODUCT.md §10.11.7), generated from the same zod
 * schemas and the same API table the gateway and the services validate with.
 *
 * Server-only: imported as `@tm/contracts/openapi`, never from this package's index, which the browser
 * bundles import (they must not carry the generator).
 *
 * The generator is zod's own `z.toJSONSchema` (zod is pinned exactly in package.json): it emits JSON Schema
 * draft 2020-12, which is OpenAPI 3.1's schema dialect, so the schemas go in unchanged; this module only
 * assembles the paths from {@link API}. (zod-openapi's current major needs Node 22, this repository runs on
 * Node 20, and a second converter would only wrap the same `z.toJSONSchema`.) Every schema is described on
 * its *input* side, the bytes on the wire: a request body as a client may send it, an answer as the gateway
 * checks it before passing it on.
 */
import { z } from 'zod';
import { AGENDA_DAYS } from './agenda.js';
import { SEARCH_STATUSES } from './search.js';
import { DUE_FILTERS } from './saved-filter-rules.js';
import { API, type ApiName } from './api.js';
import { ObjectIdString } from './common.js';
import { ErrorBody, ErrorCode } from './errors.js';
import * as contracts from './index.js';
import { API_BASE, CLIENT_ID_HEADER, CLIENT_ID_PATTERN, EVENTS_AFTER_PARAM, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, LIMITS, XSRF_COOKIE, XSRF_HEADER } from './limits.js';
import { RUM_LIMITS, RUM_PATH } from './rum-limits.js';
import { CALENDAR_FEED_EXTENSION, CALENDAR_FEED_FOLDER, CALENDAR_FEED_TOKEN_PATTERN } from './calendar-feed.js';
import { DUE_PATTERN } from './todo-dates.js';
import { LABEL_NAME_PATTERN, PRIORITIES } from './todo-labels.js';
import { SUBTASK_ID_PATTERN } from './todo-notes.js';
import { EXPORT_CSV_COLUMNS, EXPORT_FORMATS } from './transfer.js';
import { EventCursor, StreamPosition, TodoChangeEvent } from './todos.js';

/** Where the gateway serves the document, below {@link API_BASE}. */
export const OPENAPI_PATH = '/openapi.json';

type Json = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document this module writes (the full model is in the specification). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  servers: { url: string; description?: string }[];
  components: {
    schemas: Record<string, Json>;
    responses: Record<string, Json>;
    headers: Record<string, Json>;
    securitySchemes: Record<string, Json>;
  };
  [key: string]: unknown;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
  [key: string]: unknown;
}

/** One line per call, shown by documentation tools; a new entry in the API table needs one here. */
const SUMMARIES: Record<ApiName, string> = {
  me: 'The signed-in user',
  signup: 'Create an account and sign in',
  login: 'Sign in',
  logout: 'Sign out of this session',
  changePassword: 'Change the password (every other session ends)',
  logoutAll: 'Sign out everywhere',
  deleteAccount: 'Delete the account and all its tasks',
  updateProfile: 'Change the name, the email and/or the time zone (a new email needs the current password)',
  forgotPassword: 'Ask for a password reset link by email (the same answer whether or not the email has an account)',
  resetPassword: 'Set a new password with the token of a reset link (single use, 30 minutes; every session ends)',
  calendarFeed: 'Whether the calendar feed is on, and since when',
  turnOnCalendarFeed: 'Turn the calendar feed on with a new secret address (an earlier address stops working)',
  turnOffCalendarFeed: 'Turn the calendar feed off (its address stops working)',
  fetchTodos: "The user's tasks (pinned first, then by order key: the person's own order, newest first for tasks never moved), their lists and the change feed's position",
  addTodo: 'Add a task',
  updateTodo: "Set a task's title, completed and pinned flags, due date, repeat, reminders, list, priority, labels, note, subtasks or place in its list (order)",
  deleteTodo: 'Delete a task (restorable for a short while)',
  restoreTodo: 'Undo a delete: the task comes back exactly as it was',
  completeAll: 'Mark every task complete or active (undoable with restoreBulk)',
  clearCompleted: 'Delete every completed task (undoable with restoreBulk)',
  restoreBulk: "Undo a complete-all, a clear-completed, a list's delete or a tick: what it changed comes back as it was",
  todoEvents: "Live changes of the user's tasks (Server-Sent Events)",
  todoChanges: "The user's changes after a feed position, as JSON, or a reset (a device catching up)",
  todoHistory: "A task's changes of the last 30 days, each with the value it replaced",
  agenda: "Today and Upcoming: the user's open tasks overdue, then those of each day from the person's today on",
  searchTodos: "Search the user's tasks: those whose title, note or subtasks hold every word of q (the last as the start of a word), best match first, narrowed by the task screen's filters",
  syncTodos: "A device's queued task writes, applied in order, each once (by its command id)",
  reminders: 'Reminders: the push key, the zone due times are read in, those of the next day and those missed, with why',
  reminderTimeZone: "Set the time zone the user's due times are read in for reminders",
  acknowledgeReminders: 'Mark reminders as shown in the page (a missed one leaves the missed list)',
  subscribePush: "Keep this browser's push subscription for reminders, for this session",
  unsubscribePush: "Forget this browser's push subscription (reminders off on this device)",
  createList: 'Make a list of tasks (a name unique among the user\'s lists, case aside; grey and last unless told)',
  updateList: "Rename, recolour, move or archive a list (sets the given values; a repeat changes nothing)",
  deleteList: 'Delete a list and every task in it, in one change (undoable with restoreBulk)',
  exportTodos: 'Download everything of the account (lists, tasks, history) as a JSON or a CSV file',
  importTodos: "Import tasks from our JSON export or a Todoist project's CSV export: all in one transaction, or nothing and a report",
  savedFilters: "The user's saved filters (a name and the task screen's address it opens), by name",
  saveFilter: 'Save a filter by name: a name the user already gave one (case aside) gets the new address (200), another is a new filter (201)',
  deleteSavedFilter: 'Delete a saved filter',
};

/** Calls that work without a signed-in session (sign-in itself, and a logout that is always fine). */
const ANONYMOUS: ReadonlySet<ApiName> = new Set(['signup', 'login', 'logout', 'forgotPassword', 'resetPassword']);

/** The statuses under which an operation names the error codes it can answer. */
type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;

/** What a call can answer besides success: the error codes, by status. */
type Refusals = Partial<Record<RefusalStatus, readonly ErrorCode[]>>;

/** A JSON body read whole: its shape or syntax (400), its media type (415). */
const JSON_BODY = { 400: [ErrorCode.validation, ErrorCode.malformedJson], 415: [ErrorCode.unsupportedMediaType] } as const satisfies Refusals;

/** A task write's `Idempotency-Key` sent before with another request (422; a malformed one is a 400 VALIDATION_FAILED). */
const KEYED = { 422: [ErrorCode.idempotencyKeyReused] } as const satisfies Refusals;

/**
 * Every error each call can answer, by status, besides those every call of its kind shares, which
 * {@link sharedRefusals} adds (401 to a signed-in call; 403 XSRF or cross-site and 413 to a write; the
 * 4XX and 5XX ranges to all). Read off the call's gateway route (body parsing, rate limits, the account
 * throttle: gateway/src/*.routes.ts) and its service's errors. A new call declares its errors here (the
 * type makes the table complete); gateway/src/openapi.test.ts provokes each one and checks it is declared.
 */
const REFUSALS: Record<ApiName, Refusals> = {
  me: {},
  signup: { ...JSON_BODY, 409: [ErrorCode.emailTaken], 429: [ErrorCode.rateLimited] },
  login: { ...JSON_BODY, 401: [ErrorCode.invalidCredentials], 429: [ErrorCode.rateLimited] },
  // Anonymous calls other than signing in: a write carrying the XSRF token of a session that has ended is
  // told so with 401 (gateway/src/xsrf.middleware.ts).
  logout: { 401: [ErrorCode.unauthenticated] },
  changePassword: { ...JSON_BODY, 403: [ErrorCode.wrongPassword], 409: [ErrorCode.passwordChangedConcurrently], 429: [ErrorCode.rateLimited] },
  logoutAll: {},
  deleteAccount: { ...JSON_BODY, 403: [ErrorCode.wrongPassword], 429: [ErrorCode.rateLimited] },
  updateProfile: { ...JSON_BODY, 403: [ErrorCode.wrongPassword], 409: [ErrorCode.emailTaken], 429: [ErrorCode.rateLimited] },
  forgotPassword: { ...JSON_BODY, 401: [ErrorCode.unauthenticated], 429: [ErrorCode.rateLimited] },
  resetPassword: {
    ...JSON_BODY,
    400: [...JSON_BODY[400], ErrorCode.resetLinkInvalid],
    401: [ErrorCode.unauthenticated],
    409: [ErrorCode.passwordChangedConcurrently],
    429: [ErrorCode.rateLimited],
  },
  calendarFeed: {},
  // No body is needed; one that is sent must be JSON, as on every write.
  turnOnCalendarFeed: { ...JSON_BODY },
  turnOffCalendarFeed: { ...JSON_BODY },
  fetchTodos: {},
  addTodo: { ...JSON_BODY, ...KEYED },
  updateTodo: { ...JSON_BODY, 404: [ErrorCode.todoNotFound], ...KEYED },
  deleteTodo: { ...JSON_BODY, 404: [ErrorCode.todoNotFound], ...KEYED },
  restoreTodo: { ...JSON_BODY, 404: [ErrorCode.todoNotRestorable], ...KEYED },
  completeAll: { ...JSON_BODY, ...KEYED },
  // svc-todos reads the body of every write, even one it does not need; 400 VALIDATION_FAILED: a malformed Idempotency-Key.
  clearCompleted: { ...JSON_BODY, ...KEYED },
  restoreBulk: { ...JSON_BODY, 404: [ErrorCode.todoNotRestorable], ...KEYED },
  todoEvents: { 400: [ErrorCode.validation], 429: [ErrorCode.tooManyStreams], 503: [ErrorCode.tooManyStreams, ErrorCode.unavailable] },
  todoChanges: { 400: [ErrorCode.validation] },
  todoHistory: { 400: [ErrorCode.validation] },
  // A missing or malformed `today`, or `days` out of 1..AGENDA_DAYS.max: the issue names the parameter.
  agenda: { 400: [ErrorCode.validation] },
  // An empty or too long `q`, or a filter that is none of its values: the issue names the parameter.
  searchTodos: { 400: [ErrorCode.validation] },
  // A refused command is answered in its own result (status and error body); the call itself refuses only a malformed batch.
  syncTodos: { ...JSON_BODY },
  reminders: {},
  reminderTimeZone: { ...JSON_BODY },
  acknowledgeReminders: { ...JSON_BODY },
  // 503 UNAVAILABLE: this server sends no pushes (no VAPID keys).
  subscribePush: { ...JSON_BODY, 503: [ErrorCode.unavailable] },
  unsubscribePush: { ...JSON_BODY },
  // docs/PRODUCT.md §10.19: a name the user already gave a list (case aside), or the user's lists are full.
  createList: { ...JSON_BODY, 409: [ErrorCode.listNameTaken, ErrorCode.listsFull], ...KEYED },
  // An unknown, deleted or another user's list id: one answer for all.
  updateList: { ...JSON_BODY, 404: [ErrorCode.listNotFound], 409: [ErrorCode.listNameTaken], ...KEYED },
  deleteList: { ...JSON_BODY, 404: [ErrorCode.listNotFound], ...KEYED },
  // A `format` that is not json or csv (PRODUCT §10.23).
  exportTodos: { 400: [ErrorCode.validation] },
  // A bad file: every problem listed (`problems`, `problemCount`), nothing written; too large: 413 (shared).
  importTodos: { ...JSON_BODY, ...KEYED },
  savedFilters: {},
  // docs/PRODUCT.md §10.20: the user's saved filters are full.
  saveFilter: { ...JSON_BODY, 409: [ErrorCode.savedFiltersFull] },
  deleteSavedFilter: { ...JSON_BODY, 404: [ErrorCode.savedFilterNotFound] },
};

/** The refusals every call of its kind can answer: not signed in (a signed-in call); XSRF, cross-site, too large (a write). */
function sharedRefusals(name: ApiName, write: boolean): Refusals {
  return {
    ...(ANONYMOUS.has(name) ? {} : { 401: [ErrorCode.unauthenticated] }),
    ...(write ? { 403: [ErrorCode.xsrf, ErrorCode.crossSite], 413: [ErrorCode.bodyTooLarge] } : {}),
  };
}

/** The union of refusal tables, status by status, each status's codes once. */
function mergeRefusals(...tables: Refusals[]): Refusals {
  const merged: Refusals = {};
  for (const table of tables) {
    for (const [status, codes] of Object.entries(table) as [`${RefusalStatus}`, readonly ErrorCode[]][]) {
      const key = Number(status) as RefusalStatus;
      merged[key] = [...new Set([...(merged[key] ?? []), ...codes])];
    }
  }
  return merged;
}

/** Words for the reusable schemas whose rules zod cannot put into JSON Schema (refinements). */
const DESCRIPTIONS: Record<string, string> = {
  TodoTitle: `Bidi embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069) removed and trimmed, then ${LIMITS.todoTitle.min}–${LIMITS.todoTitle.max} characters with at least one visible character.`,
  EditedTodoTitle: `Bidi embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069) removed and trimmed, then ${LIMITS.todoTitle.min}–${LIMITS.todoTitle.max} characters with at least one visible character.`,
  ObjectIdString: 'A task or user id: 24 hexadecimal characters (answers always use lower case).',
  EventCursor:
    "Position in the user's change feed: the id of the last change seen, a decimal string (\"0\" before any change). " +
    "Ids are the user's own sequence: each change of the user is numbered one above the user's previous one, so the " +
    "position moves with the user's own changes only, never with other users'.",
  TodoPatch:
    'Sets at least one of title, completed, isPinned, due, repeat, repeatFrom, reminders, listId, priority and labels, note ' +
    'and subtasks (null removes an optional one, as do priority 4, labels `[]`, note `""` and subtasks `[]`; removing the due ' +
    'date removes the repeat and the reminders too); setting a value twice changes nothing. `subtasks` sets the whole ' +
    'checklist (PRODUCT §10.21). `order` moves the task in its list (PRODUCT §10.24): the key between its new ' +
    "neighbours' keys (a task without `order` sorts by the key `implicitOrderKey` of @tm/contracts gives it), `null` " +
    'puts it back by its creation; a key that is not an OrderKey is refused with 400 `VALIDATION_FAILED`, its issue on ' +
    '`order`. Ticking a repeating task (`completed: true`) completes this occurrence: ' +
    'the task stays open at its next date (PRODUCT §10.16).',
  TodoPriority:
    'A priority (PRODUCT §10.20): 1, the most urgent, 2 or 3; 4 is none, the default: it sets no priority, and removes one ' +
    'a task has. Anything else is refused with 400 `VALIDATION_FAILED`, its issue on `priority`.',
  TodoLabels:
    `The labels a task carries (PRODUCT §10.20): each ${LIMITS.labelName.min}–${LIMITS.labelName.max} letters (any script), ` +
    'digits or `- _ . /`, no spaces. Kept once each, case aside (the first spelling), in the order of their lower-case ' +
    `forms; at most ${LIMITS.labelsPerTask} once repeats are counted once. \`[]\` removes them. A bad name is refused with ` +
    "400 `VALIDATION_FAILED`, its issue on the name's index (`labels.0`); too many, on `labels`.",
  TodoNote:
    `A task's note (PRODUCT §10.21): plain text, kept as sent but trimmed at both ends and without bidi embedding, override ` +
    `and isolate controls (U+202A–U+202E, U+2066–U+2069); inner new lines are kept. At most ${LIMITS.note.max} characters ` +
    'after trimming; `""` (or white space only) removes it. Clients show it as text, its http(s) addresses as links; nothing ' +
    'else in it is rendered. Too long: 400 `VALIDATION_FAILED`, its issue on `note`.',
  SubtaskItem:
    "One item of a task's checklist (PRODUCT §10.21): `id`, made by the client (1–40 of `A–Z a–z 0–9 _ -`, unique within " +
    "the task), `title`, by a task title's rules (trimmed, 1–500 characters, not invisible only), and `done`.",
  TodoSubtasks:
    `A task's whole checklist (PRODUCT §10.21), one level, in the order sent, at most ${LIMITS.subtasksPerTask} items, each ` +
    'id once. A bad item is refused with 400 `VALIDATION_FAILED`, its issue on the item and field (`subtasks.2.title`); ' +
    'too many or an id twice, on `subtasks`. `[]` removes them.',
  TodoRepeat:
    'How the task repeats (PRODUCT §10.16): an RFC 5545 RRULE value over its due date, e.g. `FREQ=WEEKLY;BYDAY=MO,TH` or ' +
    '`FREQ=MONTHLY;BYMONTHDAY=-1`; the due date is its start (no DTSTART), it may end with UNTIL (not COUNT), repeat at most ' +
    "once a minute, and must fall after the due date. A repeating task needs a due date. Refused with 400 `VALIDATION_FAILED`, its issue on `repeat`.",
  RepeatFromField:
    'From when a repeat counts (PRODUCT §10.16): `due`, the schedule of its due dates (also when absent), or `completion`, ' +
    "the person's day the task was last completed.",
  TodoReminders:
    'Reminders in whole minutes before the due time, 0 (at it) to 40320 (four weeks), each once, at most 10; kept ' +
    'ascending (PRODUCT §10.17). Reminders need a due date: without one, 400 with the issue on `reminders`.',
  TodoDue:
    "When the task is due, in the person's time zone: a day `2027-03-14`, or a day and time `2027-03-14T09:00` (24-hour). " +
    'A real date (no 30 February, no 24:00), years 1970–2999. Absent on a task without one.',
  UndoToken:
    'An opaque, single-use token of one bulk call (a list\'s delete included), or of one update that only ticked or unticked a task (today a random ' +
    'UUID), for POST /api/todo/restore-bulk. It belongs to ' +
    'the user whose call made it and works within the restore window (60 s by default); afterwards, once used, or for ' +
    'another user, the restore answers 404 `TODO.NOT_RESTORABLE`.',
  Todo:
    'A task. `completedAt` is when it was completed: set by the write that ticked it, null while it is active, kept by ' +
    'writes that do not change `completed` and by an Undo; tasks completed before the field existed carry their `updatedAt`. ' +
    '`due`, `repeat`, `repeatFrom`, `repeatDone` and `reminders` are absent on a task without them: a client that knows ' +
    'nothing of dates sees the task of PRODUCT §7. `listId` is the list the task is in (PRODUCT §10.19), absent for the ' +
    'Inbox: a client that knows nothing of lists sees every task. `priority` (1–3) and `labels` (PRODUCT §10.20) are ' +
    'absent on a task without them (priority 4, no labels), and so are `note` and `subtasks` (PRODUCT §10.21). `order` ' +
    "(PRODUCT §10.24) is the task's own place, absent on a task never moved: the list is pinned first, then by order key " +
    'ascending, a task without one by a key that puts the newest first, then the higher `_id`; a client that knows ' +
    'nothing of order sees the spec\'s order for every task nobody moved.',
  TaskList:
    "A list of tasks (PRODUCT §10.19): its name (1–60 characters, not `Inbox`, unique among the user's lists case aside), " +
    'colour, place among the lists (`order`, a fractional order key, ascending, then `_id`) and whether it is archived ' +
    '(archived lists keep their tasks and still take new ones). The Inbox is not a list: a task without `listId` is in it.',
  ListScope: 'Which tasks a bulk call acts on (PRODUCT §10.19): a list\'s id, or `inbox` for the tasks in no list.',
  OrderKey:
    'A place among neighbours (PRODUCT §10.19, a task\'s §10.24): a fractional-indexing key (base 62, as `orderKeyBetween` of @tm/contracts ' +
    'makes it), at most 128 characters; keys compare as plain strings.',
  TimeZone:
    "The person's time zone (PRODUCT §10.10, §10.14): an IANA name such as `Europe/Paris`, `UTC`, or an alias the " +
    'server knows (`Asia/Calcutta`), kept exactly as given; due dates are days and times in it. An unknown name is ' +
    'refused with 400 `VALIDATION_FAILED`, its issue on `timeZone`. In an answer it is absent while the account has none ' +
    "(a client then uses the browser's zone).",
  CalendarDay:
    "A day of the person's own calendar, `2027-03-14`: no time, no offset (PRODUCT §10.14). A real date (no 30 February), years 1970–2999.",
  ErrorBody: 'Every error answer (4xx, 5xx) has this body: a message for people and a stable code for programs.',
};

/** A day `YYYY-MM-DD` with no time: the day part of {@link DUE_PATTERN}. */
const DAY_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** A label's name as labelNameProblem of todo-labels.ts takes it (PRODUCT §10.20); openapi.test.ts holds the two to the same names. */
export const LABEL_PATTERN = LABEL_NAME_PATTERN;

/**
 * Rules the schemas check with refinements, which zod cannot put into JSON Schema, said in JSON Schema for
 * the same components (the limits of packages/contracts/src/limits.ts). A title's length counts it as
 * stored (trimmed): send it trimmed.
 */
const SCHEMA_RULES: Record<string, Json> = {
  TodoTitle: { minLength: LIMITS.todoTitle.min, maxLength: LIMITS.todoTitle.max },
  EditedTodoTitle: { minLength: LIMITS.todoTitle.min, maxLength: LIMITS.todoTitle.max },
  TodoDue: { pattern: DUE_PATTERN.source },
  CalendarDay: { pattern: DAY_PATTERN },
  TodoPatch: { minProperties: 1 },
  TodoLabels: { items: { type: 'string', minLength: LIMITS.labelName.min, maxLength: LIMITS.labelName.max, pattern: LABEL_PATTERN } },
  TodoNote: { maxLength: LIMITS.note.max },
  TodoSubtasks: { maxItems: LIMITS.subtasksPerTask },
  SubtaskItem: {
    properties: {
      id: { type: 'string', pattern: SUBTASK_ID_PATTERN },
      title: { type: 'string', minLength: LIMITS.todoTitle.min, maxLength: LIMITS.todoTitle.max },
      done: { type: 'boolean' },
    },
  },
  ListName: { minLength: LIMITS.listName.min, maxLength: LIMITS.listName.max },
  OrderKey: { minLength: 1, maxLength: LIMITS.orderKey.max, pattern: '^[0-9A-Za-z]+$' },
  ListPatch: { minProperties: 1 },
  Email: { format: 'email' },
  UpdateProfileRequest: { anyOf: [{ required: ['fullName'] }, { required: ['email'] }, { required: ['timeZone'] }] },
};

/** The schemas the table refers to, named after their export; shared objects keep the plainest name. */
function componentNames(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  const preferred = ['MessageResponse'];
  for (const name of [...preferred, ...Object.keys(contracts).sort()]) {
    const value: unknown = (contracts as Record<string, unknown>)[name];
    if (value instanceof z.ZodType && !names.has(value)) names.set(value, name);
  }
  return names;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Every `$ref` target reachable from `value` (components included, transitively). */
function referencedSchemas(value: unknown, schemas: Record<string, Json>, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencedSchemas(item, schemas, found);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const target = key === '$ref' && typeof item === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(item)?.[1] : undefined;
      if (target !== undefined) {
        if (!found.has(target)) {
          found.add(target);
          referencedSchemas(schemas[target], schemas, found);
        }
      } else {
        referencedSchemas(item, schemas, found);
      }
    }
  }
  return found;
}

/**
 * A union of whole-number literals (a priority, PRODUCT §10.20), which zod writes as `anyOf` of `const`s, said
 * as one integer `enum`, in place: the plainer form for documentation tools and generated clients.
 */
function whole(jsonSchema: Json): void {
  const members = jsonSchema.anyOf;
  if (!Array.isArray(members) || members.length === 0) return;
  const values = members.map((member: Json) => (member.type === 'number' && Object.keys(member).length === 2 && Number.isInteger(member.const) ? member.const : undefined));
  if (values.some((value) => value === undefined)) return;
  delete jsonSchema.anyOf;
  jsonSchema.type = 'integer';
  jsonSchema.enum = values;
}

/** All named contract schemas as JSON Schema 2020-12, referring to each other through `#/components/schemas`. */
function componentSchemas(names: Map<z.ZodType, string>): Record<string, Json> {
  const registry = z.registry<{ id: string; description?: string }>();
  for (const [schema, id] of names) {
    const description = DESCRIPTIONS[id];
    registry.add(schema, description ? { id, description } : { id });
  }
  // zod writes a regex's source without its flags; the id's check is case-insensitive.
  const idPattern: unknown = ObjectIdString.in;
  const { schemas } = z.toJSONSchema(registry, {
    metadata: registry,
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === idPattern && jsonSchema.pattern === '^[0-9a-f]{24}$') jsonSchema.pattern = '^[0-9a-fA-F]{24}$';
      whole(jsonSchema);
    },
  });
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // A component is a schema inside this document: no dialect or id of its own.
    const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
    out[id] = { ...rest, ...SCHEMA_RULES[id] };
  }
  return out;
}

const ERROR_CONTENT = { 'application/json': { schema: ref('ErrorBody') } };

/** The catch-all answers: what no status of an operation names (4XX) and every failure of ours (5XX). */
const ERROR_RESPONSES: Record<string, Json> = {
  ClientError: {
    description:
      'Any other refusal, in the usual error body: 405 (`ROUTE.METHOD_NOT_ALLOWED`), 408 (`REQUEST.TIMEOUT`: the request came ' +
      `too slowly), 411 (\`BODY.LENGTH_REQUIRED\`: a body without Content-Length), 413 (\`BODY.TOO_LARGE\`: a body over ${LIMITS.bodyBytes} ` +
      'bytes, on any call), 431 (`REQUEST.HEADERS_TOO_LARGE`).',
    content: ERROR_CONTENT,
  },
  ServerError: {
    description:
      'The gateway or a service failed or is unavailable: 500 (`INTERNAL`), 502 (`UPSTREAM.BAD_GATEWAY`), 503 (`UPSTREAM.UNAVAILABLE`, ' +
      '`SERVICE.UNAVAILABLE`: a store or a service cannot be reached, or the process is shutting down; `STORAGE.NOT_WRITABLE`: ' +
      'nothing was saved), 504 (`UPSTREAM.TIMEOUT`). Safe to retry later.',
    content: ERROR_CONTENT,
  },
};

/** What each status means, as the first words of its description. */
const STATUS_MEANING: Record<RefusalStatus, string> = {
  400: 'The request is not valid',
  401: 'Not signed in',
  403: 'Refused',
  404: 'Not found',
  409: 'Conflict',
  413: 'The body is too large',
  415: 'The body is not JSON',
  422: 'The request cannot be applied',
  429: 'Too many requests',
  503: 'Unavailable for now',
};

/** What a code means, in a few words, after it in a status's description. */
const CODE_MEANING: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.validation]: '`issues` names each field and what is wrong with it',
  [ErrorCode.malformedJson]: 'the body is not well-formed JSON',
  [ErrorCode.unsupportedMediaType]: 'a body that is not `application/json`, or is compressed',
  [ErrorCode.bodyTooLarge]: `over ${LIMITS.bodyBytes} bytes`,
  [ErrorCode.unauthenticated]: 'no session, or it ended; `reason` says why when the session cookie names one that has ended',
  [ErrorCode.invalidCredentials]: 'the email or the password is wrong (which one is not said)',
  [ErrorCode.xsrf]: "a write without the session's XSRF token",
  [ErrorCode.crossSite]: 'a write from another site',
  [ErrorCode.wrongPassword]: 'the current password is wrong',
  [ErrorCode.emailTaken]: 'another account has this email',
  [ErrorCode.passwordChangedConcurrently]: 'the password changed meanwhile (another change or a reset won); nothing was written',
  [ErrorCode.resetLinkInvalid]: 'the reset link is unknown, already used or expired',
  [ErrorCode.todoNotFound]: 'no such task for this user',
  [ErrorCode.listNotFound]: 'no such list for this user (unknown, deleted, or another user\'s: which is not said)',
  [ErrorCode.listNameTaken]: 'the user already has a list of this name, case aside; `issues` names `name`; nothing was written',
  [ErrorCode.listsFull]: `the user has ${LIMITS.lists} lists already; nothing was written`,
  [ErrorCode.savedFiltersFull]: `the user has ${LIMITS.savedFilters} saved filters already; nothing was written`,
  [ErrorCode.savedFilterNotFound]: "no saved filter of the user has this id (unknown, deleted or another user's alike)",
  [ErrorCode.calendarFeedNotFound]: 'no feed has this address: it was never made, was replaced by a new one, or was turned off',
  [ErrorCode.todoNotRestorable]: 'the task, or the tasks of the undo token, can no longer be restored',
  [ErrorCode.idempotencyKeyReused]: 'this `Idempotency-Key` came with another request (call, task or body) in the last 24 h; nothing was written',
  [ErrorCode.rateLimited]: 'wait the `Retry-After` seconds',
  [ErrorCode.tooManyStreams]: '429: this session, user or address holds the most live streams allowed; 503: this gateway does',
  [ErrorCode.unavailable]: 'shutting down, or its session store is unreachable: reconnect later',
};

/**
 * The answer of one status: the error body whose `code` is one of `codes`, described code by code, and
 * `Retry-After` when it is a rate limit.
 */
function refusalResponse(status: RefusalStatus, codes: readonly ErrorCode[]): Json {
  const said = codes.map((code) => (CODE_MEANING[code] ? `\`${code}\` (${CODE_MEANING[code]})` : `\`${code}\``));
  return {
    description: `${STATUS_MEANING[status]}: ${said.join('; ')}.`,
    ...(codes.includes(ErrorCode.rateLimited) ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
    content: {
      'application/json': {
        schema: { allOf: [ref('ErrorBody'), { type: 'object', required: ['code'], properties: { code: { type: 'string', enum: [...codes] } } }] },
      },
    },
  };
}

/** Every refusal of a table as responses, by status in order. */
function refusalResponses(refusals: Refusals): Record<string, Json> {
  return Object.fromEntries(
    (Object.entries(refusals) as [`${RefusalStatus}`, readonly ErrorCode[]][])
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([status, codes]) => [status, refusalResponse(Number(status) as RefusalStatus, codes)]),
  );
}

const errorRef = (name: keyof typeof ERROR_RESPONSES) => ({ $ref: `#/components/responses/${name}` });

const TODO_ID_PARAMETER = {
  name: 'todoId',
  in: 'path',
  required: true,
  description: 'The task\'s id.',
  schema: ref('ObjectIdString'),
};

const LIST_ID_PARAMETER = {
  name: 'listId',
  in: 'path',
  required: true,
  description: "The list's id.",
  schema: ref('ObjectIdString'),
};

const FILTER_ID_PARAMETER = {
  name: 'filterId',
  in: 'path',
  required: true,
  description: "The saved filter's id.",
  schema: ref('ObjectIdString'),
};

/** Clear completed of one list (docs/PRODUCT.md §10.19); absent: of every list. */
const LIST_SCOPE_PARAMETER = {
  name: 'listId',
  in: 'query',
  required: false,
  description: 'Only the completed tasks of this list (a list\'s id, or `inbox`: the tasks in no list); absent: every completed task.',
  schema: ref('ListScope'),
};

const CLIENT_ID_PARAMETER = {
  name: CLIENT_ID_HEADER,
  in: 'header',
  required: false,
  description: "A random id of the page making the change; the change's live event carries it back as `origin`.",
  schema: { type: 'string', pattern: CLIENT_ID_PATTERN.source },
};

const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'A unique string per user action (a random UUID), sent again unchanged when the same call is retried. Within 24 h a ' +
    'retry with the same key by the same user is applied once and answered exactly as the first call was (same status ' +
    'and body, a refusal included); the same key with another call, task or body answers 422 `TODO.IDEMPOTENCY_KEY_REUSED`. ' +
    'Without it, the call behaves as ever.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
};

const CHANGES_PARAMETERS = [
  {
    name: 'after',
    in: 'query',
    required: true,
    description: "The device's feed position: the cursor of its list, or of the last answer it applied.",
    schema: ref('EventCursor'),
  },
];

const AGENDA_PARAMETERS = [
  {
    name: 'today',
    in: 'query',
    required: true,
    description: "The person's own day, read by the client on the person's clock (their time zone, PRODUCT §10.14): tasks due before it are overdue.",
    schema: ref('CalendarDay'),
  },
  {
    name: 'days',
    in: 'query',
    required: false,
    description: `How many days from today on the agenda covers (today is the first); ${AGENDA_DAYS.default} when absent.`,
    schema: { type: 'integer', minimum: 1, maximum: AGENDA_DAYS.max, default: AGENDA_DAYS.default },
  },
];

/** GET /todo/export's format (PRODUCT §10.23). */
const EXPORT_FORMAT_PARAMETER = {
  name: 'format',
  in: 'query',
  required: true,
  description: '`json`: the versioned document (TransferDocument) to import back; `csv`: one row per task for a spreadsheet.',
  schema: { type: 'string', enum: [...EXPORT_FORMATS] },
};

/** What a download answers (PRODUCT §10.23). */
const DOWNLOAD_DESCRIPTION = [
  'The file, as an attachment. JSON: `{format: "task-manager", version: 1, exportedAt, lists, tasks, history}`, everything',
  'needed to import it back. CSV (RFC 4180, UTF-8): a header row, then one row per task with the columns',
  `${EXPORT_CSV_COLUMNS.join(', ')}; a cell starting with = + - or @ is written with a leading ' so a spreadsheet never`,
  'runs it as a formula.',
].join(' ');

/** GET /todo/search's query (docs/PRODUCT.md §10.22): the words, then the task screen's filters. */
const SEARCH_PARAMETERS = [
  {
    name: 'q',
    in: 'query',
    required: true,
    description:
      `The words to find (${LIMITS.searchQuery.max} characters at most, at least one letter or digit): a task matches when each is a word of its title, ` +
      'note or a subtask, the last one the start of a word (as typed). Case and accents aside; punctuation separates words and is never syntax.',
    schema: { type: 'string', minLength: 1, maxLength: LIMITS.searchQuery.max },
  },
  { name: 'listId', in: 'query', required: false, description: "Only the tasks of this list (a list's id), or of the Inbox (`inbox`).", schema: { type: 'string' } },
  { name: 'status', in: 'query', required: false, description: 'Only the open tasks (`active`) or the completed ones (`completed`).', schema: { type: 'string', enum: [...SEARCH_STATUSES] } },
  { name: 'priority', in: 'query', required: false, description: 'Only the tasks of this priority (4: none).', schema: { type: 'integer', enum: [...PRIORITIES] } },
  { name: 'label', in: 'query', required: false, description: 'Only the tasks carrying this label (case aside).', schema: { type: 'string', minLength: 1, maxLength: LIMITS.labelName.max } },
  {
    name: 'due',
    in: 'query',
    required: false,
    description: 'Only the tasks overdue, due today, in the next 7 days (today and the six after it), or with no due date.',
    schema: { type: 'string', enum: [...DUE_FILTERS] },
  },
  {
    name: 'now',
    in: 'query',
    required: false,
    description: "The person's date and time, YYYY-MM-DDTHH:mm, on their clock (their time zone): what `due` counts from. The current UTC minute when absent.",
    schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$' },
  },
];

const STREAM_PARAMETERS = [
  {
    name: EVENTS_AFTER_PARAM,
    in: 'query',
    required: false,
    description: 'Start after this position (the `cursor` of the task list). `Last-Event-ID` wins when both are sent.',
    schema: ref('EventCursor'),
  },
  {
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description: 'Resume after the last event received (sent by EventSource when it reconnects).',
    schema: ref('EventCursor'),
  },
];

const STREAM_DESCRIPTION = [
  'Server-Sent Events of the session\'s user only. The stream starts with `retry:`; then, when resuming, every',
  'missed `change` event, however many, as fast as the connection takes them (or one `reset` when the gap is older',
  'than the server keeps: fetch the list once); then `ready` with the stream\'s position; then one `change` event per',
  'write (bulk actions included), each with the user\'s next `id:` (one more per change of this user; other users\'',
  'changes never move it). `: ping` comments keep the connection alive. The stream ends when the session ends',
  '(logout, sign out everywhere, password change, account deletion, expiry) and when the gateway shuts down',
  '(reconnect). A session, a user and an address may hold a few streams at once (429 beyond), a gateway process a',
  'bounded number (503).',
].join(' ');

/** One Server-Sent Event of the stream: its `event:` name, its `id:` and its `data:` (JSON of `data`). */
function streamEvent(event: string, data: string, description: string): Json {
  return {
    type: 'object',
    title: event,
    description,
    required: ['event', 'id', 'data'],
    properties: { event: { type: 'string', const: event }, id: ref('EventCursor'), data: ref(data) },
  };
}

/** What the call needs and how it is sent, in words (the security requirements say it for tools). */
function callDescription(name: ApiName, write: boolean, isTodo: boolean): string {
  const who = ANONYMOUS.has(name) ? 'Needs no session.' : 'Needs a signed-in session (its cookie).';
  const writes = write ? ` A write: send the \`${XSRF_HEADER}\` header (the \`${XSRF_COOKIE}\` cookie's value).` : '';
  const page = isTodo && write
    ? ` The \`${CLIENT_ID_HEADER}\` header marks the page that made the change in its live event; with an \`${IDEMPOTENCY_KEY_HEADER}\` a retry is applied once.`
    : '';
  return `${SUMMARIES[name]}. ${who}${writes}${page} Every refusal it can answer is listed under its status.`;
}

function operation(name: ApiName, names: Map<z.ZodType, string>): OpenApiOperation {
  const endpoint = API[name];
  const nameOf = (schema: z.ZodType) => {
    const found = names.get(schema);
    if (!found) throw new Error(`openapi: the schema of ${name} is not exported from @tm/contracts`);
    return found;
  };
  const signedIn = !ANONYMOUS.has(name);
  const write = endpoint.method !== 'GET';
  // Task calls; the reminder calls (PRODUCT §10.17) and the saved filters' (§10.20) live under /todo/ but write no task.
  const isTodo = endpoint.path.startsWith('/todo/') && !endpoint.path.startsWith('/todo/reminders') && !endpoint.path.startsWith('/todo/saved-filters');
  const parameters: Json[] = [];
  if (endpoint.path.includes(':todoId')) parameters.push(TODO_ID_PARAMETER);
  if (endpoint.path.includes(':listId')) parameters.push(LIST_ID_PARAMETER);
  if (endpoint.path.includes(':filterId')) parameters.push(FILTER_ID_PARAMETER);
  // A sync call's commands carry their own ids (their keys), so the call itself takes none.
  if (isTodo && write) parameters.push(...(name === 'syncTodos' ? [CLIENT_ID_PARAMETER] : [CLIENT_ID_PARAMETER, IDEMPOTENCY_KEY_PARAMETER]));
  if (name === 'todoChanges') parameters.push(...CHANGES_PARAMETERS);
  if (name === 'agenda') parameters.push(...AGENDA_PARAMETERS);
  if (name === 'searchTodos') parameters.push(...SEARCH_PARAMETERS);
  if (name === 'clearCompleted') parameters.push(LIST_SCOPE_PARAMETER);
  if (name === 'exportTodos') parameters.push(EXPORT_FORMAT_PARAMETER);
  const stream = 'stream' in endpoint && endpoint.stream;
  if (stream) parameters.push(...STREAM_PARAMETERS);

  const success = stream
    ? {
        description: STREAM_DESCRIPTION,
        content: {
          'text/event-stream': {
            schema: {
              type: 'array',
              description: 'The stream as the sequence of its events (`retry:` and `: ping` comments left out); the `data:` of each is JSON.',
              items: {
                oneOf: [
                  streamEvent('change', nameOf(endpoint.response), 'One committed write: the tasks as they now are and the ids that are gone.'),
                  streamEvent('ready', nameOf(StreamPosition), 'The stream is live at this position (after the replay of a resume).'),
                  streamEvent('reset', nameOf(StreamPosition), 'The changes since the resume point are no longer kept: fetch the list once.'),
                ],
              },
            },
          },
        },
      }
    : 'download' in endpoint && endpoint.download
      ? {
          description: DOWNLOAD_DESCRIPTION,
          headers: { 'Content-Disposition': { description: 'attachment, with the file name: `task-manager-2026-12-07.json` (or `.csv`).', schema: { type: 'string' } } },
          content: { 'application/json': { schema: ref(nameOf(endpoint.response)) }, 'text/csv': { schema: { type: 'string' } } },
        }
      : { description: 'Success.', content: { 'application/json': { schema: ref(nameOf(endpoint.response)) } } };

  const responses: Record<string, Json> = {
    [String(endpoint.status)]: success,
    ...refusalResponses(mergeRefusals(sharedRefusals(name, write), REFUSALS[name])),
    '4XX': errorRef('ClientError'),
    '5XX': errorRef('ServerError'),
  };

  // Sign-in and the other anonymous writes need the visitor's XSRF token, and no session (they cannot have one).
  const requirement = { ...(signedIn ? { session: [] } : {}), ...(write ? { xsrf: [] } : {}) };
  return {
    operationId: name,
    summary: SUMMARIES[name],
    description: stream ? `${SUMMARIES[name]}. ${STREAM_DESCRIPTION}` : callDescription(name, write, isTodo),
    tags: [isTodo ? 'tasks' : 'account'],
    security: Object.keys(requirement).length > 0 ? [requirement] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...('request' in endpoint
      ? { requestBody: { required: true, content: { 'application/json': { schema: ref(nameOf(endpoint.request)) } } } }
      : {}),
    responses,
  };
}

/** The document's one server: the gateway's `/api` on the origin that serves the document (and the app). */
const SERVER = { url: API_BASE, description: "The gateway, on the app's own origin" };

/** `/todo/update-todo/:todoId` → `/todo/update-todo/{todoId}`: a path below the document's server, {@link API_BASE}. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

export interface OpenApiOptions {
  /** The document's `info.version`. */
  version?: string;
  /** Name of the gateway's session cookie, for the security scheme. */
  sessionCookie?: string;
}

/** The refusals of `POST /api/rum` (gateway/src/rum.routes.ts): its own checks, before any session or XSRF token. */
const RUM_REFUSALS: Refusals = {
  ...JSON_BODY,
  403: [ErrorCode.crossSite],
  413: [ErrorCode.bodyTooLarge],
  429: [ErrorCode.rateLimited],
};

/**
 * `GET /api/calendar/{token}.ics` (gateway/src/calendar-feed.routes.ts, PRODUCT §10.18): the calendar feed, for
 * calendar apps, which send no cookie: the secret address is its only key.
 */
function calendarFeedOperation(): OpenApiOperation {
  return {
    operationId: 'calendarFeedIcs',
    summary: 'The calendar feed: the dated tasks of the account as iCalendar (RFC 5545)',
    description: [
      'For Google Calendar, Apple Calendar and other calendar apps (PRODUCT §10.18). Needs no session and no XSRF token,',
      'sets no cookie: the secret address is the key (turned on, replaced and turned off on the account page). Every open',
      'task with a due date is an event: a whole day as an all-day event, a time as a 30-minute event at that floating',
      'time; a repeat as its RRULE (a repeat from completion also carries `X-TM-REPEAT-FROM:COMPLETION`); `UID` is',
      '`<task id>@task-manager`. Within the per-address budget (429). Kept by caches along the way for a few minutes',
      '(`Cache-Control: private`), revalidated by its ETag.',
    ].join(' '),
    tags: ['tasks'],
    security: [],
    parameters: [
      {
        name: 'token',
        in: 'path',
        required: true,
        description: "The feed's secret token, as the address made on the account page carries it.",
        schema: { type: 'string', pattern: CALENDAR_FEED_TOKEN_PATTERN.source },
      },
    ],
    responses: {
      200: { description: 'The feed.', content: { 'text/calendar': { schema: { type: 'string' } } } },
      ...refusalResponses({ 404: [ErrorCode.calendarFeedNotFound], 429: [ErrorCode.rateLimited] }),
      '4XX': errorRef('ClientError'),
      '5XX': errorRef('ServerError'),
    },
  };
}

/**
 * Builds the document: every entry of {@link API} (method, path, parameters, request body, success answer
 * with its status, every error it can answer by status with its codes, the live stream as
 * `text/event-stream`) plus the gateway's own paths. Only the schemas the paths refer to are kept in
 * `components`.
 */
export function createOpenApiDocument({ version = '0.1.0', sessionCookie = 'tm.sid' }: OpenApiOptions = {}): OpenApiDocument {
  const names = componentNames();
  const paths: OpenApiDocument['paths'] = {};
  for (const name of Object.keys(API) as ApiName[]) {
    const endpoint = API[name];
    const path = openApiPath(endpoint.path);
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation(name, names) };
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'openApi',
      summary: 'This description of the API (OpenAPI 3.1)',
      description: 'This document, generated from the schemas the gateway and the services check with. Needs no session; cacheable (revalidated by its ETag).',
      tags: ['meta'],
      security: [],
      responses: {
        200: { description: 'The OpenAPI document.', content: { 'application/json': { schema: { type: 'object' } } } },
        '4XX': errorRef('ClientError'),
        '5XX': errorRef('ServerError'),
      },
    },
  };

  paths[RUM_PATH.slice(API_BASE.length)] = {
    post: {
      operationId: 'reportWebVitals',
      summary: 'Core Web Vitals of a page load, from the page (navigator.sendBeacon)',
      description: [
        'Real-user monitoring (docs/OPERATIONS.md "What users feel (RUM)"): the route pattern the page was loaded at (one of',
        'the routes of the remote catalog, /remotes.json, or `other`) and its LCP, INP, CLS and TTFB, each within its',
        'plausible range, nothing else. No session and no XSRF token (a beacon cannot send the header); the request',
        `must carry the app's own Origin (403 otherwise), be at most ${RUM_LIMITS.bodyBytes} bytes (413) and within the`,
        'per-address budget (429). A refused report records nothing.',
      ].join(' '),
      tags: ['meta'],
      security: [],
      requestBody: {
        required: true,
        content: { 'text/plain': { schema: ref('RumReport') }, 'application/json': { schema: ref('RumReport') } },
      },
      responses: {
        204: { description: 'Taken into the histograms.' },
        ...refusalResponses(RUM_REFUSALS),
        '4XX': errorRef('ClientError'),
        '5XX': errorRef('ServerError'),
      },
    },
  };

  paths[`${CALENDAR_FEED_FOLDER.slice(API_BASE.length)}/{token}${CALENDAR_FEED_EXTENSION}`] = { get: calendarFeedOperation() };

  const all = componentSchemas(names);
  const used = referencedSchemas([paths, ERROR_RESPONSES], all);
  // Keep the event payloads even if a future path stops naming them: they are the stream's contract.
  for (const schema of [TodoChangeEvent, StreamPosition, EventCursor, ErrorBody]) {
    const name = names.get(schema);
    if (name) referencedSchemas({ $ref: `#/components/schemas/${name}` }, all, used);
  }
  const schemas = Object.fromEntries(Object.entries(all).filter(([id]) => used.has(id)).sort(([a], [b]) => a.localeCompare(b)));

  return {
    openapi: '3.1.1',
    info: {
      title: 'Task Manager API',
      version,
      description: [
        'The public API of Task Manager, under `/api` on the app\'s origin. Sign in with signup or login; the gateway then',
        `keeps the session in the \`${sessionCookie}\` cookie. Every call other than GET must echo the`,
        `\`${XSRF_COOKIE}\` cookie in the \`${XSRF_HEADER}\` header. Errors always have the ErrorBody shape.`,
      ].join(' '),
    },
    tags: [
      { name: 'account', description: 'Signing in and out, the account page' },
      { name: 'tasks', description: "The signed-in user's tasks" },
      { name: 'meta', description: 'About the API itself' },
    ],
    servers: [SERVER],
    paths,
    components: {
      schemas,
      responses: ERROR_RESPONSES,
      headers: {
        RetryAfter: { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'integer', minimum: 1 } },
      },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: sessionCookie, description: 'The session the gateway keeps for a browser.' },
        xsrf: {
          type: 'apiKey',
          in: 'header',
          name: XSRF_HEADER,
          description:
            `The XSRF token of the session (or, before sign-in, of the visitor), read from the \`${XSRF_COOKIE}\` cookie (double ` +
            'submit); required on every non-GET call, sign-in included.',
        },
      },
    },
  };
}
