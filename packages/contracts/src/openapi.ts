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
import { API, type ApiName } from './api.js';
import { ObjectIdString } from './common.js';
import { ErrorBody } from './errors.js';
import * as contracts from './index.js';
import { API_BASE, CLIENT_ID_HEADER, CLIENT_ID_PATTERN, EVENTS_AFTER_PARAM, LIMITS, XSRF_COOKIE, XSRF_HEADER } from './limits.js';
import { RUM_LIMITS, RUM_PATH } from './rum-limits.js';
import { EventCursor, StreamPosition, TodoChangeEvent } from './todos.js';

/** Where the gateway serves the document, below {@link API_BASE}. */
export const OPENAPI_PATH = '/openapi.json';

type Json = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document this module writes (the full model is in the specification). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; securitySchemes: Record<string, Json> };
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
  fetchTodos: "The user's tasks (pinned first, then newest first) and the change feed's position",
  addTodo: 'Add a task',
  updateTodo: "Set a task's title, completed and/or pinned flags",
  deleteTodo: 'Delete a task (restorable for a short while)',
  restoreTodo: 'Undo a delete: the task comes back exactly as it was',
  completeAll: 'Mark every task complete or active (undoable with restoreBulk)',
  clearCompleted: 'Delete every completed task (undoable with restoreBulk)',
  restoreBulk: 'Undo a complete-all or clear-completed: the tasks it changed come back as they were',
  todoEvents: "Live changes of the user's tasks (Server-Sent Events)",
};

/** Calls that work without a signed-in session (sign-in itself, and a logout that is always fine). */
const ANONYMOUS: ReadonlySet<ApiName> = new Set(['signup', 'login', 'logout']);

/** Calls that answer 404 besides those naming a task in their path: an undo token that no longer works. */
const NOT_FOUND: ReadonlySet<ApiName> = new Set(['restoreBulk']);

/** Words for the reusable schemas whose rules zod cannot put into JSON Schema (refinements). */
const DESCRIPTIONS: Record<string, string> = {
  TodoTitle: `Bidi embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069) removed and trimmed, then ${LIMITS.todoTitle.min}–${LIMITS.todoTitle.max} characters with at least one visible character.`,
  EditedTodoTitle: `Bidi embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069) removed and trimmed, then ${LIMITS.todoTitle.min}–${LIMITS.todoTitle.max} characters with at least one visible character.`,
  ObjectIdString: 'A task or user id: 24 hexadecimal characters (answers always use lower case).',
  EventCursor:
    "Position in the user's change feed: the id of the last change seen, a decimal string (\"0\" before any change). " +
    "Ids are the user's own sequence: each change of the user is numbered one above the user's previous one, so the " +
    "position moves with the user's own changes only, never with other users'.",
  TodoPatch: 'Sets at least one of title, completed and isPinned; setting a value twice changes nothing.',
  UndoToken:
    'An opaque, single-use token of one bulk call (today a random UUID), for POST /api/todo/restore-bulk. It belongs to ' +
    'the user whose call made it and works within the restore window (60 s by default); afterwards, once used, or for ' +
    'another user, the restore answers 404 `TODO.NOT_RESTORABLE`.',
  Todo:
    'A task. `completedAt` is when it was completed: set by the write that ticked it, null while it is active, kept by ' +
    'writes that do not change `completed` and by an Undo; tasks completed before the field existed carry their `updatedAt`.',
  ErrorBody: 'Every error answer (4xx, 5xx) has this body: a message for people and a stable code for programs.',
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
    },
  });
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // A component is a schema inside this document: no dialect or id of its own.
    const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
    out[id] = rest;
  }
  return out;
}

const ERROR_CONTENT = { 'application/json': { schema: ref('ErrorBody') } };

const ERROR_RESPONSES: Record<string, Json> = {
  BadRequest: { description: 'The request is not valid (`VALIDATION_FAILED`, `BODY.*`).', content: ERROR_CONTENT },
  Unauthenticated: { description: 'Not signed in, or the session ended (`AUTH.UNAUTHENTICATED`).', content: ERROR_CONTENT },
  Forbidden: {
    description: 'A write without the session\'s XSRF token (`AUTH.XSRF_TOKEN_INVALID`) or from another site (`AUTH.CROSS_SITE_REQUEST`).',
    content: ERROR_CONTENT,
  },
  NotFound: {
    description:
      'No such task for this user (`TODO.NOT_FOUND`; `TODO.NOT_RESTORABLE` once a deleted task, or the tasks of an undo token, can no longer be restored).',
    content: ERROR_CONTENT,
  },
  ClientError: { description: 'Any other refusal, in the usual error body.', content: ERROR_CONTENT },
  ServerError: {
    description: 'The gateway or a service failed or is unavailable (`UPSTREAM.*`, `SERVICE.UNAVAILABLE`, `STORAGE.NOT_WRITABLE`, `INTERNAL`); safe to retry later.',
    content: ERROR_CONTENT,
  },
};

const errorRef = (name: keyof typeof ERROR_RESPONSES) => ({ $ref: `#/components/responses/${name}` });

const TODO_ID_PARAMETER = {
  name: 'todoId',
  in: 'path',
  required: true,
  description: 'The task\'s id.',
  schema: ref('ObjectIdString'),
};

const CLIENT_ID_PARAMETER = {
  name: CLIENT_ID_HEADER,
  in: 'header',
  required: false,
  description: "A random id of the page making the change; the change's live event carries it back as `origin`.",
  schema: { type: 'string', pattern: CLIENT_ID_PATTERN.source },
};

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
  'Server-Sent Events of the session\'s user only. The stream starts with `retry:`; then, when resuming, the',
  'missed `change` events (or one `reset` when the gap is older than the server keeps: fetch the list once);',
  'then `ready` with the stream\'s position; then one `change` event per write (bulk actions included), each',
  'with the user\'s next `id:` (one more per change of this user; other users\' changes never move it). `: ping`',
  'comments keep the connection alive. The stream ends when the session',
  'ends (logout, sign out everywhere, password change, account deletion, expiry) and when the gateway shuts',
  'down (reconnect). A session may hold a few streams at once (429 beyond), a gateway process a bounded number (503).',
].join(' ');

function operation(name: ApiName, names: Map<z.ZodType, string>): OpenApiOperation {
  const endpoint = API[name];
  const nameOf = (schema: z.ZodType) => {
    const found = names.get(schema);
    if (!found) throw new Error(`openapi: the schema of ${name} is not exported from @tm/contracts`);
    return found;
  };
  const signedIn = !ANONYMOUS.has(name);
  const write = endpoint.method !== 'GET';
  const isTodo = endpoint.path.startsWith('/todo/');
  const parameters: Json[] = [];
  if (endpoint.path.includes(':todoId')) parameters.push(TODO_ID_PARAMETER);
  if (isTodo && write) parameters.push(CLIENT_ID_PARAMETER);
  const stream = 'stream' in endpoint && endpoint.stream;
  if (stream) parameters.push(...STREAM_PARAMETERS);

  const success = stream
    ? {
        description: STREAM_DESCRIPTION,
        content: {
          'text/event-stream': {
            schema: { type: 'string', description: 'Server-Sent Events; the data of each event is JSON.' },
            'x-events': {
              change: ref(nameOf(endpoint.response)),
              ready: ref(nameOf(StreamPosition)),
              reset: ref(nameOf(StreamPosition)),
            },
          },
        },
      }
    : { description: 'Success.', content: { 'application/json': { schema: ref(nameOf(endpoint.response)) } } };

  const responses: Record<string, Json> = { [String(endpoint.status)]: success };
  if ('request' in endpoint || endpoint.path.includes(':todoId') || stream) responses['400'] = errorRef('BadRequest');
  if (signedIn) responses['401'] = errorRef('Unauthenticated');
  if (write) responses['403'] = errorRef('Forbidden');
  if (endpoint.path.includes(':todoId') || NOT_FOUND.has(name)) responses['404'] = errorRef('NotFound');
  if (stream) {
    responses['429'] = { description: 'This session already holds the most live streams allowed (`EVENTS.TOO_MANY_STREAMS`).', content: ERROR_CONTENT };
    responses['503'] = {
      description: 'This gateway holds the most live streams it allows (`EVENTS.TOO_MANY_STREAMS`), or is shutting down: reconnect later.',
      content: ERROR_CONTENT,
    };
  }
  responses['4XX'] = errorRef('ClientError');
  responses['5XX'] = errorRef('ServerError');

  const security: Record<string, string[]>[] = [{ ...(signedIn || write ? { session: [] } : {}), ...(write ? { xsrf: [] } : {}) }];
  return {
    operationId: name,
    summary: SUMMARIES[name],
    tags: [isTodo ? 'tasks' : 'account'],
    security,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...('request' in endpoint
      ? { requestBody: { required: true, content: { 'application/json': { schema: ref(nameOf(endpoint.request)) } } } }
      : {}),
    responses,
  };
}

/** `/todo/update-todo/:todoId` → `/api/todo/update-todo/{todoId}` */
export function openApiPath(path: string): string {
  return API_BASE + path.replace(/:(\w+)/g, '{$1}');
}

export interface OpenApiOptions {
  /** The document's `info.version`. */
  version?: string;
  /** Name of the gateway's session cookie, for the security scheme. */
  sessionCookie?: string;
}

/**
 * Builds the document: every entry of {@link API} (method, path, parameters, request body, success answer
 * with its status, the error body of 4xx/5xx, the live stream as `text/event-stream`) plus the document's
 * own path. Only the schemas the paths refer to are kept in `components`.
 */
export function createOpenApiDocument({ version = '0.1.0', sessionCookie = 'tm.sid' }: OpenApiOptions = {}): OpenApiDocument {
  const names = componentNames();
  const paths: OpenApiDocument['paths'] = {};
  for (const name of Object.keys(API) as ApiName[]) {
    const endpoint = API[name];
    const path = openApiPath(endpoint.path);
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation(name, names) };
  }
  paths[API_BASE + OPENAPI_PATH] = {
    get: {
      operationId: 'openApi',
      summary: 'This description of the API (OpenAPI 3.1)',
      tags: ['meta'],
      security: [],
      responses: {
        200: { description: 'The OpenAPI document.', content: { 'application/json': { schema: { type: 'object' } } } },
        '5XX': errorRef('ServerError'),
      },
    },
  };

  paths[RUM_PATH] = {
    post: {
      operationId: 'reportWebVitals',
      summary: 'Core Web Vitals of a page load, from the page (navigator.sendBeacon)',
      description: [
        'Real-user monitoring (docs/OPERATIONS.md "What users feel (RUM)"): the route pattern the page was loaded at and its',
        'LCP, INP, CLS and TTFB, nothing else. No session and no XSRF token (a beacon cannot send the header); the',
        `request must carry the app's own Origin (403 otherwise), be at most ${RUM_LIMITS.bodyBytes} bytes (413) and within`,
        'the per-address budget (429).',
      ].join(' '),
      tags: ['meta'],
      security: [],
      requestBody: {
        required: true,
        content: { 'text/plain': { schema: ref('RumReport') }, 'application/json': { schema: ref('RumReport') } },
      },
      responses: {
        204: { description: 'Taken into the histograms.' },
        400: errorRef('BadRequest'),
        403: errorRef('Forbidden'),
        '4XX': errorRef('ClientError'),
        '5XX': errorRef('ServerError'),
      },
    },
  };

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
        'The public API of Task Manager, on the gateway\'s origin. Sign in with signup or login; the gateway then',
        `keeps the session in the \`${sessionCookie}\` cookie. Every call other than GET must echo the`,
        `\`${XSRF_COOKIE}\` cookie in the \`${XSRF_HEADER}\` header. Errors always have the ErrorBody shape.`,
      ].join(' '),
    },
    tags: [
      { name: 'account', description: 'Signing in and out, the account page' },
      { name: 'tasks', description: "The signed-in user's tasks" },
      { name: 'meta', description: 'About the API itself' },
    ],
    paths,
    components: {
      schemas,
      responses: ERROR_RESPONSES,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: sessionCookie, description: 'The session the gateway keeps for a browser.' },
        xsrf: {
          type: 'apiKey',
          in: 'header',
          name: XSRF_HEADER,
          description: `The session's XSRF token, read from the \`${XSRF_COOKIE}\` cookie (double submit); required on every non-GET call.`,
        },
      },
    },
  };
}
