import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import {
  ChangePasswordRequest,
  DeleteAccountRequest,
  LoginRequest,
  XSRF_COOKIE,
  XSRF_HEADER,
  type TodoResponse,
  type UserResponse,
} from '@tm/contracts';
import { ApiClient, newUser, type RunningStack, startStack } from '@tm/test-support';
import type { z } from 'zod';
import { inProcessGateway, type TestGateway } from './gateway.test-helpers.js';

/**
 * Property-based fuzzing of the public API through the gateway, with the real services behind it: every
 * route gets thousands of generated requests (random and hostile JSON, wrong types, huge strings, odd
 * Unicode, `__proto__` / `constructor` keys, `{"$gt": ""}` in every field, path tricks in ids, wrong media
 * types, forged cookies, XSRF tokens and identity headers). For every single request:
 *  - the answer is never a 5xx, and every error is the API's JSON error shape;
 *  - the answer (body and headers) never carries the victim's data (email, id, tasks, cookies) unless the
 *    request itself carried that string (a 404 may echo the path it was asked for);
 *  - the victim's rows (user, tasks, sessions) never change;
 *  - a rejected request (4xx) writes nothing: neither users.sqlite nor todos.sqlite saw a commit (SQLite's
 *    `data_version`), and no signed-in session was created or ended.
 */

type RouteName =
  | 'signup'
  | 'login'
  | 'logout'
  | 'logout-all'
  | 'me'
  | 'password'
  | 'account'
  | 'fetch-todo'
  | 'add-todo'
  | 'update-todo'
  | 'delete-todo'
  | 'restore-todo'
  | 'complete-all'
  | 'clear-completed'
  | 'events'
  | 'unknown';

/** Where a cookie or token of a forged request comes from. */
type Source = 'own' | 'victim' | 'random' | 'missing' | 'empty';
/** What the `X-XSRF-TOKEN` header carries. */
type XsrfVariant = 'own' | 'victim' | 'random' | 'missing' | 'empty' | 'upper' | 'padded' | 'twice';

type Credentials =
  /** The fuzzer's own cookie jar (a signed-in browser). */
  | { kind: 'own'; xsrf: XsrfVariant }
  | { kind: 'none'; xsrf: XsrfVariant; noise: string }
  | { kind: 'forged'; sid: Source; sig: Source; xsrfCookie: Source; xsrf: XsrfVariant; noise: string }
  | { kind: 'garbage'; cookie: string; xsrf: XsrfVariant; noise: string };

type Body =
  | { kind: 'none'; contentType?: string }
  | { kind: 'text'; text: string; contentType?: string; chunked: boolean }
  | { kind: 'bytes'; bytes: Uint8Array; contentType?: string; chunked: boolean };

interface FuzzRequest {
  method: string;
  /** Path and query on the wire; `{{placeholders}}` are filled in when the request is sent. */
  path: string;
  credentials: Credentials;
  headers: [string, string][];
  body: Body;
}

/** A request as sent, placeholders filled in. */
interface Wire {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  chunked: boolean;
  /** Whether the fuzzer's cookie jar was sent (then its Set-Cookie answers are kept, as a browser would). */
  ownJar: boolean;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

let stack: RunningStack<TestGateway>;
let victim: { client: ApiClient; id: string; email: string; fullName: string; password: string; todoIds: string[]; titles: string[] };
let fuzzer: { client: ApiClient; id: string; email: string; password: string };
let db: { users: Database.Database; todos: Database.Database; sessions: Database.Database };
let agent: Agent;
let secrets: string[];
let victimFingerprint: string;

const perRoute = new Map<RouteName, number>();
const perStatus = new Map<number, number>();
let fiveHundreds = 0;

const SESSION_CHANGING: ReadonlySet<RouteName> = new Set(['signup', 'login', 'logout', 'logout-all', 'password', 'account']);

beforeAll(async () => {
  // svc-todos' sweep removes expired deleted tasks in the background: a write no request made, which the
  // write detector below would blame on whatever request was in flight. Once at start-up is all it does here.
  stack = await startStack({ gateway: inProcessGateway(), env: { TODO_SWEEP_INTERVAL_MS: String(60 * 60 * 1000) } });
  agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const open = (file: string) => new Database(path.join(stack.dataDir, file), { readonly: true, fileMustExist: true });

  const unique = randomBytes(6).toString('hex');
  const victimUser = { ...newUser(`Victim ${unique}`), password: `victim pass ${randomBytes(9).toString('base64url')}` };
  const victimClient = new ApiClient(stack.gateway.url);
  await victimClient.get('/api/user/me');
  const victimSignup = await victimClient.post<UserResponse>('/api/user/signup', victimUser);
  expect(victimSignup.status).toBe(201);
  const titles = [0, 1, 2].map((i) => `victim secret task ${unique} #${i}`);
  const todoIds: string[] = [];
  for (const title of titles) {
    const added = await victimClient.post<TodoResponse>('/api/todo/add-todo', { title });
    expect(added.status).toBe(201);
    todoIds.push(added.body.todo._id);
  }
  expect((await victimClient.put(`/api/todo/update-todo/${todoIds[0]}`, { updateData: { isPinned: true } })).status).toBe(200);
  expect((await victimClient.put(`/api/todo/update-todo/${todoIds[1]}`, { updateData: { completed: true } })).status).toBe(200);
  victim = { client: victimClient, id: victimSignup.body.user._id, email: victimUser.email, fullName: victimUser.fullName, password: victimUser.password, todoIds, titles };

  const fuzzerUser = { ...newUser('Fuzzer'), password: `fuzzer pass ${randomBytes(9).toString('base64url')}` };
  const fuzzerClient = new ApiClient(stack.gateway.url);
  await fuzzerClient.get('/api/user/me');
  const fuzzerSignup = await fuzzerClient.post<UserResponse>('/api/user/signup', fuzzerUser);
  expect(fuzzerSignup.status).toBe(201);
  fuzzer = { client: fuzzerClient, id: fuzzerSignup.body.user._id, email: fuzzerUser.email, password: fuzzerUser.password };

  db = { users: open('users.sqlite'), todos: open('todos.sqlite'), sessions: open('sessions.sqlite') };
  // The write detector works across processes: the fuzzer's first task is a commit the test connection sees.
  const before = dataVersions();
  for (const title of ['fuzzer task one', 'fuzzer task two']) {
    expect((await fuzzerClient.post('/api/todo/add-todo', { title })).status).toBe(201);
  }
  expect(dataVersions().todos).not.toBe(before.todos);
  expect(dataVersions().users).toBe(before.users);

  secrets = [
    victim.id,
    victim.email,
    victim.fullName,
    victim.password,
    ...victim.todoIds,
    ...victim.titles,
    ...['tm.sid', 'tm.sid.sig', XSRF_COOKIE].map((name) => victim.client.cookies.get(name) ?? ''),
  ].filter((secret) => secret.length >= 8);
  victimFingerprint = fingerprintOfVictim();
}, 60_000);

afterAll(async () => {
  if (db) for (const connection of Object.values(db)) connection.close();
  agent?.destroy();
  await stack?.stop();
});

// ---------------------------------------------------------------------------------------------------------
// What the stores say

/** SQLite's `data_version` of the services' files: it changes whenever another connection commits a write. */
function dataVersions(): { users: number; todos: number } {
  return {
    users: db.users.pragma('data_version', { simple: true }) as number,
    todos: db.todos.pragma('data_version', { simple: true }) as number,
  };
}

/** The signed-in sessions (anonymous visitors get a session row by design, with or without a valid request). */
function signedInSessions(): string {
  const row = db.sessions
    .prepare("SELECT group_concat(id || ':' || user_id, ',') AS s FROM (SELECT id, user_id FROM sessions WHERE user_id IS NOT NULL ORDER BY id)")
    .get() as { s: string | null };
  return row.s ?? '';
}

/** Every byte stored about the victim: the account row, the tasks and the sessions. */
function fingerprintOfVictim(): string {
  const user = db.users.prepare('SELECT id, full_name, email, password_hash, created_at FROM users WHERE id = ?').get(victim.id);
  const todos = db.todos.prepare('SELECT * FROM todos WHERE user_id = ? ORDER BY id').all(victim.id);
  const sessions = db.sessions.prepare('SELECT id, data, user_id FROM sessions WHERE user_id = ? ORDER BY id').all(victim.id);
  return JSON.stringify({ user, todos, sessions });
}

function fuzzerTodoIds(): string[] {
  return (
    db.todos.prepare('SELECT id FROM todos WHERE user_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, id DESC').all(fuzzer.id) as { id: string }[]
  ).map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------------------
// Sending a request: raw node:http, so paths, headers and bodies go on the wire exactly as generated

const PLACEHOLDER = /\{\{(\w+)\.(\w+)\}\}/g;

function placeholderValue(owner: string, name: string): string {
  const jar = owner === 'victim' ? victim.client.cookies : fuzzer.client.cookies;
  switch (`${owner}.${name}`) {
    case 'victim.id':
      return victim.id;
    case 'victim.ID':
      return victim.id.toUpperCase();
    case 'victim.email':
      return victim.email;
    case 'victim.EMAIL':
      return ` ${victim.email.toUpperCase()} `;
    case 'victim.todo0':
    case 'victim.todo1':
    case 'victim.todo2':
      return victim.todoIds[Number(name.slice(-1))] ?? '';
    case 'victim.TODO0':
      return (victim.todoIds[0] ?? '').toUpperCase();
    case 'victim.sid':
    case 'own.sid':
      return jar.get('tm.sid') ?? '';
    case 'victim.sig':
    case 'own.sig':
      return jar.get('tm.sid.sig') ?? '';
    case 'victim.xsrf':
    case 'own.xsrf':
      return jar.get(XSRF_COOKIE) ?? '';
    case 'own.id':
      return fuzzer.id;
    case 'own.email':
      return fuzzer.email;
    case 'own.password':
      return fuzzer.password;
    case 'own.todo':
      return fuzzerTodoIds()[0] ?? '0123456789abcdef01234567';
    case 'own.now':
      return String(Date.now());
    default:
      return `{{${owner}.${name}}}`;
  }
}

const fill = (text: string) => text.replace(PLACEHOLDER, (_all, owner: string, name: string) => placeholderValue(owner, name));

function sourceValue(source: Source, name: string, noise: string): string | undefined {
  switch (source) {
    case 'own':
      return fuzzer.client.cookies.get(name) ?? '';
    case 'victim':
      return victim.client.cookies.get(name) ?? '';
    case 'random':
      return noise || 'x';
    case 'empty':
      return '';
    case 'missing':
      return undefined;
  }
}

function xsrfValue(variant: XsrfVariant, sessionToken: string, noise: string): string | undefined {
  switch (variant) {
    case 'own':
      return sessionToken;
    case 'victim':
      return victim.client.cookies.get(XSRF_COOKIE) ?? '';
    case 'random':
      return noise || 'x';
    case 'missing':
      return undefined;
    case 'empty':
      return '';
    case 'upper':
      return sessionToken.toUpperCase();
    case 'padded':
      return ` ${sessionToken}\t`;
    case 'twice':
      return `${sessionToken}, ${sessionToken}`;
  }
}

/** Header values node:http accepts (no CR/LF/NUL, nothing above U+00FF). */
const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');

function toWire(request: FuzzRequest): Wire {
  const headers: Record<string, string> = {};
  const { credentials } = request;
  let ownJar = false;
  const ownToken = fuzzer.client.cookies.get(XSRF_COOKIE) ?? '';
  if (credentials.kind === 'own') {
    ownJar = true;
    headers.cookie = fuzzer.client.cookieHeader();
    const token = xsrfValue(credentials.xsrf, ownToken, '');
    if (token !== undefined) headers[XSRF_HEADER] = token;
  } else if (credentials.kind === 'none') {
    const token = xsrfValue(credentials.xsrf, ownToken, credentials.noise);
    if (token !== undefined) headers[XSRF_HEADER] = token;
  } else if (credentials.kind === 'forged') {
    // The victim's id with the victim's signature is the victim's real session: never "forged", never sent.
    const sig = credentials.sid === 'victim' && credentials.sig === 'victim' ? 'random' : credentials.sig;
    const pairs = [
      ['tm.sid', sourceValue(credentials.sid, 'tm.sid', credentials.noise)],
      ['tm.sid.sig', sourceValue(sig, 'tm.sid.sig', credentials.noise)],
      [XSRF_COOKIE, sourceValue(credentials.xsrfCookie, XSRF_COOKIE, credentials.noise)],
    ].filter((pair): pair is [string, string] => pair[1] !== undefined);
    if (pairs.length > 0) headers.cookie = pairs.map(([name, value]) => `${name}=${value}`).join('; ');
    const token = xsrfValue(credentials.xsrf, ownToken, credentials.noise);
    if (token !== undefined) headers[XSRF_HEADER] = token;
  } else {
    headers.cookie = headerSafe(fill(credentials.cookie));
    const token = xsrfValue(credentials.xsrf, ownToken, credentials.noise);
    if (token !== undefined) headers[XSRF_HEADER] = token;
  }
  for (const [name, value] of request.headers) headers[name] = headerSafe(fill(value));

  const { body } = request;
  let payload: Buffer | undefined;
  let chunked = false;
  if (body.kind === 'text') payload = Buffer.from(fill(body.text), 'utf8');
  else if (body.kind === 'bytes') payload = Buffer.from(body.bytes);
  if (body.kind !== 'none') chunked = body.chunked;
  if (body.contentType !== undefined) headers['content-type'] = body.contentType;
  if (payload && !chunked) headers['content-length'] = String(payload.length);
  if (chunked) headers['transfer-encoding'] = 'chunked';
  return { method: request.method, path: fill(request.path), headers, body: payload, chunked, ownJar };
}

/** The bytes of a body sent with this Content-Encoding (none, gzip, deflate or br). */
function decodeBody(body: Buffer, encoding: string | undefined): Buffer {
  if (!encoding || encoding === 'identity' || body.length === 0) return body;
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'deflate') return inflateSync(body);
  if (encoding === 'br') return brotliDecompressSync(body);
  throw new Error(`unknown content-encoding ${encoding}`);
}

function send(wire: Wire): Promise<Answer> {
  const { port } = new URL(stack.gateway.url);
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: wire.method, path: wire.path, headers: wire.headers, agent }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        // Read as the client would: a request that accepted gzip or br may get a compressed answer (JSON over
        // 1 KiB, docs/ARCHITECTURE.md "Delivery to the browser"), and the checks below are about what it says.
        let body: Buffer = Buffer.concat(chunks);
        try {
          body = decodeBody(body, incoming.headers['content-encoding']);
        } catch (error) {
          reject(new Error(`the answer's ${incoming.headers['content-encoding']} body does not decode: ${(error as Error).message}`));
          return;
        }
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, rawHeaders: incoming.rawHeaders, body });
      });
    });
    outgoing.setTimeout(20_000, () => outgoing.destroy(new Error('no answer in 20 s')));
    outgoing.on('error', reject);
    if (wire.body && wire.chunked) {
      const middle = Math.floor(wire.body.length / 2);
      outgoing.write(wire.body.subarray(0, middle));
      outgoing.end(wire.body.subarray(middle));
    } else {
      outgoing.end(wire.body);
    }
  });
}

/** Keeps the cookies the gateway set on the fuzzer's jar, as the browser would. */
function absorb(setCookies: string[] | undefined): void {
  for (const line of setCookies ?? []) {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (value === '' || attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a))) fuzzer.client.cookies.delete(name);
    else fuzzer.client.cookies.set(name, value);
  }
}

/** After a request that may have changed the fuzzer's session: signs it in again if it no longer is. */
async function keepFuzzerSignedIn(): Promise<void> {
  const me = await fuzzer.client.get<UserResponse>('/api/user/me');
  if (me.status === 200 && me.body.user._id === fuzzer.id) return;
  fuzzer.client.cookies.clear();
  await fuzzer.client.get('/api/user/me');
  const login = await fuzzer.client.post<UserResponse>('/api/user/login', { email: fuzzer.email, password: fuzzer.password });
  if (login.status !== 200 || login.body.user._id !== fuzzer.id) throw new Error(`the fuzzer could not sign in again: ${login.status}`);
}

/** Keeps the fuzzer's task list short (generated titles add up), through the API like any user. */
async function pruneFuzzerTodos(): Promise<void> {
  const ids = fuzzerTodoIds();
  if (ids.length <= 60) return;
  for (const id of ids.slice(20)) {
    const answer = await fuzzer.client.delete(`/api/todo/delete-todo/${id}`);
    if (answer.status !== 200) throw new Error(`pruning the fuzzer's tasks failed: ${answer.status}`);
  }
}

function describeExchange(wire: Wire, answer: Answer | Error): string {
  const body = wire.body ? wire.body.toString('utf8') : '';
  const shown = body.length > 600 ? `${body.slice(0, 600)}… (${wire.body?.length} bytes)` : body;
  const reply = answer instanceof Error ? `error ${answer.message}` : `${answer.status} ${answer.body.toString('utf8').slice(0, 600)}`;
  return `${wire.method} ${wire.path.slice(0, 300)}\nheaders: ${JSON.stringify(wire.headers).slice(0, 600)}\nbody: ${JSON.stringify(shown)}\n→ ${reply}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A body where none is expected, or a chunked one: how a second request could hide in the first. */
function unusualFraming(wire: Wire): boolean {
  return wire.body !== undefined && (wire.chunked || ['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(wire.method));
}

const PROBE_EVERY = 16;
let sent = 0;

/**
 * Right after a generated request, the victim and then the fuzzer read their lists as their browsers would:
 * the victim must get exactly its own tasks, and the fuzzer nothing of the victim's. This catches answers
 * that go to the wrong request (a desynchronised connection to a service), which no single answer shows.
 */
async function probeAfter(wire: Wire, answer: Answer, due: boolean): Promise<void> {
  if (!due) return;
  const mine = await victim.client.get<{ todos?: { _id: string; title: string }[] }>('/api/todo/fetch-todo');
  const theirs = await fuzzer.client.get('/api/todo/fetch-todo');
  victimFingerprint = fingerprintOfVictim();
  const problems: string[] = [];
  const ids = (mine.body.todos ?? []).map((todo) => `${todo._id} ${todo.title}`).sort();
  const expected = victim.todoIds.map((id, i) => `${id} ${victim.titles[i]}`).sort();
  if (mine.status !== 200 || JSON.stringify(ids) !== JSON.stringify(expected)) {
    problems.push(`the victim's next request got someone else's answer: ${mine.status} ${JSON.stringify(mine.body).slice(0, 300)}`);
  }
  const told = JSON.stringify(theirs.body).toLowerCase();
  const leaked = secrets.filter((secret) => told.includes(secret.toLowerCase()));
  if (leaked.length > 0) problems.push(`the fuzzer's next request got the victim's data (${leaked.join(', ')}): ${theirs.status}`);
  if (problems.length > 0) {
    await keepFuzzerSignedIn();
    throw new Error(`${problems.join('; ')}\nafter:\n${describeExchange(wire, answer)}`);
  }
}

/** Sends one generated request and checks every property; throws (with the request and answer) on a violation. */
async function exercise(route: RouteName, request: FuzzRequest): Promise<void> {
  const wire = toWire(request);
  const versions = dataVersions();
  const sessionsBefore = signedInSessions();
  perRoute.set(route, (perRoute.get(route) ?? 0) + 1);
  let answer: Answer;
  try {
    answer = await send(wire);
  } catch (error) {
    throw new Error(`no answer:\n${describeExchange(wire, error as Error)}`);
  }
  perStatus.set(answer.status, (perStatus.get(answer.status) ?? 0) + 1);
  if (answer.status >= 500) fiveHundreds += 1;
  if (wire.ownJar) absorb(answer.headers['set-cookie']);

  const problems: string[] = [];
  if (answer.status >= 500 || answer.status < 200) problems.push(`answered ${answer.status}`);

  const text = answer.body.toString('utf8');
  if (answer.status >= 400 && wire.method !== 'HEAD') {
    let shape: unknown;
    try {
      shape = JSON.parse(text);
    } catch {
      shape = undefined;
    }
    const error = shape as { message?: unknown; code?: unknown } | undefined;
    if (typeof error?.message !== 'string' || typeof error.code !== 'string' || !String(answer.headers['content-type']).includes('json')) {
      problems.push('an error answer not in the JSON error shape');
    }
  }

  const asked = [wire.method, wire.path, safeDecode(wire.path), JSON.stringify(wire.headers), wire.body?.toString('utf8') ?? '', wire.body?.toString('latin1') ?? '']
    .join('\n')
    .toLowerCase();
  const told = `${answer.rawHeaders.join('\n')}\n${text}`.toLowerCase();
  for (const secret of secrets) {
    const lower = secret.toLowerCase();
    if (told.includes(lower) && !asked.includes(lower)) problems.push(`the answer carries the victim's "${secret}"`);
  }

  if (fingerprintOfVictim() !== victimFingerprint) problems.push("the victim's rows changed");

  const rejected = answer.status >= 400;
  if (rejected || route === 'unknown') {
    const after = dataVersions();
    if (after.users !== versions.users) problems.push('users.sqlite was written');
    if (after.todos !== versions.todos) problems.push('todos.sqlite was written');
  }
  if (rejected && signedInSessions() !== sessionsBefore) problems.push('signed-in sessions changed');

  if (problems.length > 0) {
    victimFingerprint = fingerprintOfVictim();
    await keepFuzzerSignedIn();
    throw new Error(`${problems.join('; ')}:\n${describeExchange(wire, answer)}`);
  }

  if (route === 'password' && answer.status === 200) {
    // A generated change that was good enough: the fuzzer's password is now the new one.
    fuzzer.password = (JSON.parse(wire.body?.toString('utf8') ?? '{}') as { newPassword: string }).newPassword;
  }
  await probeAfter(wire, answer, ++sent % PROBE_EVERY === 0 || unusualFraming(wire));

  const setsSession = (answer.headers['set-cookie'] ?? []).some((line) => line.startsWith('tm.sid='));
  if ((answer.status < 300 && SESSION_CHANGING.has(route)) || (wire.ownJar && setsSession)) await keepFuzzerSignedIn();
  if (route === 'add-todo' && answer.status < 300) await pruneFuzzerTodos();
}

// ---------------------------------------------------------------------------------------------------------
// Generators

/** Raw JSON text inside a generated value (numbers JSON.stringify cannot write, deep nesting). */
class RawJson {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') return objectText(Object.entries(value));
  return JSON.stringify(value) ?? 'null';
}

/** An object as JSON text from key/value pairs: `__proto__` stays a plain key, duplicate keys stay duplicated. */
function objectText(pairs: [string, unknown][]): string {
  return `{${pairs.map(([key, value]) => `${JSON.stringify(key)}:${jsonText(value)}`).join(',')}}`;
}

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

const SPECIAL_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uDC00y',
  '\u202Eevil\u202C',
  '\u200B',
  '\u200B\uFEFF\u2060',
  '\u3164',
  'e\u0301',
  '\u{1F600}',
  '\u0661\u0662\u0663',
  'ﬁ',
  'İ',
  '\r\n',
  '\t',
  'null',
  'undefined',
  'true',
  'NaN',
  '[object Object]',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  "'; DROP TABLE todos; --",
  '") OR 1=1 --',
  '{"$gt": ""}',
  '$where',
  '../../../../etc/passwd',
  '..%2f..%2finternal',
  '%00',
  '%s%s%s%n',
  '${7*7}',
  '{{7*7}}',
  'a@b',
  'user@example',
  '"@example.com',
  'x'.repeat(129),
  'a'.repeat(501),
  ' '.repeat(600),
];

const huge = fc
  .tuple(fc.constantFrom('x', 'é', '\u{1F600}', '\u200B', ' ', '\u202E', '\uD800', '"', '\\'), fc.integer({ min: 100, max: 20_000 }))
  .map(([unit, count]) => unit.repeat(count));

const weirdString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 40 }) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 1, arbitrary: huge },
);

/** The victim's identifiers, for the bodies that may carry them (never stored where the fuzzer reads them back). */
const secretString = fc.constantFrom('{{victim.id}}', '{{victim.ID}}', '{{victim.email}}', '{{victim.EMAIL}}', '{{victim.todo0}}', '{{victim.TODO0}}');

const OPERATORS: unknown[] = [
  { $gt: '' },
  { $ne: null },
  { $ne: '' },
  { $regex: '.*' },
  { $where: 'return true' },
  { $exists: true },
  { $in: ['', null] },
  { $nin: [] },
  { $or: [{}, { a: 1 }] },
  { $expr: { $eq: [1, 1] } },
  { $gt: '', $lt: 'zzzz' },
];
const operator = fc.constantFrom(...OPERATORS);

const RAW_VALUES = ['1e999', '-1e999', '-0', '1e-400', '123456789012345678901234567890', '0.1e1', '1E2', '"\\ud800"', '"\\u0000"', '"\\/"'].map(
  (text) => new RawJson(text),
);
const deepNesting = fc
  .tuple(fc.constantFrom(['[', ']'], ['{"a":', '}']), fc.integer({ min: 50, max: 3000 }))
  .map(([[open = '', close = ''], depth]) => new RawJson(`${open.repeat(depth)}1${close.repeat(depth)}`));

const protoValue = fc.constantFrom<unknown>(
  { isAdmin: true },
  { userId: '{{victim.id}}' },
  { polluted: true, title: 'polluted' },
  { prototype: { polluted: true } },
  null,
  'x',
);

function value(withSecrets: boolean): fc.Arbitrary<unknown> {
  const choices: fc.WeightedArbitrary<unknown>[] = [
    { weight: 6, arbitrary: weirdString },
    { weight: 3, arbitrary: operator },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({})) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_VALUES) },
    { weight: 1, arbitrary: deepNesting },
  ];
  if (withSecrets) choices.push({ weight: 1, arbitrary: secretString });
  return fc.oneof(...choices);
}

const DANGEROUS_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '_id',
  'id',
  'userId',
  'user_id',
  'todoId',
  'owner',
  'role',
  'isAdmin',
  '$where',
  '$gt',
  'title',
  'updateData',
  'completed',
  'isPinned',
  'email',
  'password',
  'fullName',
  'currentPassword',
  'newPassword',
  '',
];
const key = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...DANGEROUS_KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });

const extraPairs = (withSecrets: boolean) => fc.array(fc.tuple(key, fc.oneof(value(withSecrets), protoValue)), { maxLength: 3 });
const protoPairs = fc.array(
  fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.oneof(protoValue, fc.constant<unknown>({ prototype: { isAdmin: true } }))),
  { minLength: 1, maxLength: 3 },
);

/**
 * JSON objects aimed at one route: its fields with random values plus extra keys; a valid body with one field
 * replaced by an operator object or a wrong type; a valid body with `__proto__`/`constructor` keys; a valid
 * body with one field given twice.
 */
function aimedObjects(fields: string[], valid: Record<string, unknown>, withSecrets: boolean): fc.Arbitrary<string> {
  const anyValue = value(withSecrets);
  const model = Object.fromEntries(fields.map((field) => [field, anyValue])) as Record<string, fc.Arbitrary<unknown>>;
  const wrong = fc.oneof(operator, fc.integer(), fc.boolean(), fc.constant(null), fc.constant([]), fc.array(weirdString, { maxLength: 2 }), fc.constant({}));
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.record(model, { requiredKeys: [] }), extraPairs(withSecrets)).map(([obj, extra]) => objectText([...Object.entries(obj), ...extra])) },
    {
      weight: 4,
      arbitrary: fc.tuple(fc.constantFrom(...fields), wrong).map(([field, bad]) => objectText(Object.entries({ ...valid, [field]: bad }))),
    },
    { weight: 2, arbitrary: protoPairs.map((pairs) => objectText([...pairs, ...Object.entries(valid)])) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...fields), wrong, fc.boolean())
        .map(([field, bad, first]) => objectText(first ? [[field, bad], ...Object.entries(valid)] : [...Object.entries(valid), [field, bad]])),
    },
  );
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json', 'APPLICATION/JSON'];
const OTHER_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/json; charset=utf-16le',
  'application/json; charset=latin1',
  'application/jsonp',
  'application/xml',
  'json',
  '*/*',
  '',
];
const jsonType = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...JSON_TYPES) }, { weight: 2, arbitrary: fc.constantFrom(...OTHER_TYPES) }, { weight: 1, arbitrary: fc.constant(undefined) });
const anyType = fc.oneof(fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES), fc.constant(undefined));
const chunked = fc.oneof({ weight: 7, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });

const RAW_TEXTS = [
  '',
  '{',
  '{"title": ',
  '{"title":"x"',
  '{"title":"x"}}',
  '{"title":"x"} trailing',
  '\uFEFF{"title":"x"}',
  "{'title':'x'}",
  '{title:"x"}',
  '[]',
  '[{"title":"x"}]',
  'null',
  'true',
  '0',
  '"title"',
  'title=x&completed=true',
  '<todo><title>x</title></todo>',
  '{"title":"x",}',
  '{"title":"\\u"}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  // A whole second request in the body: it must never reach a service as a request of its own.
  'GET /todo/fetch-todo HTTP/1.1\r\nHost: todos\r\n\r\n',
  'GET /user/me HTTP/1.1\r\nHost: users\r\nx-tm-user-id: {{victim.id}}\r\n\r\n',
  'DELETE /internal/todos HTTP/1.1\r\nHost: todos\r\ncontent-length: 0\r\n\r\n',
];
const rawText = fc.oneof(fc.constantFrom(...RAW_TEXTS), fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 }));

/** Request bodies: aimed JSON objects mostly, then random JSON, broken text, random bytes, nothing. */
function bodies(aimed: fc.Arbitrary<string>, { mostlyNone = false } = {}): fc.Arbitrary<Body> {
  const text = (texts: fc.Arbitrary<string>, types: fc.Arbitrary<string | undefined>) =>
    fc.record({ text: texts, contentType: types, chunked }).map((body): Body => ({ kind: 'text', ...body }));
  return fc.oneof(
    { weight: 10, arbitrary: text(aimed, jsonType) },
    { weight: 3, arbitrary: text(fc.jsonValue().map((json) => JSON.stringify(json)), jsonType) },
    { weight: 2, arbitrary: text(rawText, anyType) },
    {
      weight: 1,
      arbitrary: fc
        .record({ bytes: fc.uint8Array({ maxLength: 300 }), contentType: anyType, chunked })
        .map((body): Body => ({ kind: 'bytes', ...body })),
    },
    { weight: mostlyNone ? 30 : 2, arbitrary: fc.record({ contentType: anyType }, { requiredKeys: [] }).map((body): Body => ({ kind: 'none', ...body })) },
  );
}

const noise = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map(headerSafe));
const xsrfVariant = fc.constantFrom<XsrfVariant>('own', 'victim', 'random', 'missing', 'empty', 'upper', 'padded', 'twice');
const source = fc.constantFrom<Source>('own', 'victim', 'random', 'missing', 'empty');
const GARBAGE_COOKIES = [
  'tm.sid={{victim.sid}}',
  'tm.sid={{victim.sid}}; tm.sid.sig={{own.sig}}; XSRF-TOKEN={{victim.xsrf}}',
  'tm.sid={{victim.sid}}; tm.sid={{own.sid}}; tm.sid.sig={{own.sig}}',
  'tm.sid={{victim.sid}}; tm.sid.sig={{victim.sig}}x',
  'tm.sid={{victim.sid}}%00; tm.sid.sig={{victim.sig}}',
  'tm.sid=; tm.sid.sig=',
  'tm.sid=../../etc/passwd; tm.sid.sig=x',
  'tm.sid={"$gt":""}; tm.sid.sig={"$ne":null}',
  'tm.sid=__proto__; tm.sid.sig=constructor',
  '=; ;;; =x',
  'XSRF-TOKEN={{victim.xsrf}}',
];

/** Mostly the fuzzer's own signed-in jar with a valid XSRF token (to get deep into the routes), else forgeries. */
const credentials: fc.Arbitrary<Credentials> = fc.oneof(
  { weight: 14, arbitrary: fc.constant<Credentials>({ kind: 'own', xsrf: 'own' }) },
  { weight: 3, arbitrary: xsrfVariant.map((xsrf): Credentials => ({ kind: 'own', xsrf })) },
  { weight: 2, arbitrary: fc.record({ xsrf: xsrfVariant, noise }).map((c): Credentials => ({ kind: 'none', ...c })) },
  {
    weight: 4,
    arbitrary: fc.record({ sid: source, sig: source, xsrfCookie: source, xsrf: xsrfVariant, noise }).map((c): Credentials => ({ kind: 'forged', ...c })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ cookie: fc.oneof(fc.constantFrom(...GARBAGE_COOKIES), fc.string({ maxLength: 80 })), xsrf: xsrfVariant, noise })
      .map((c): Credentials => ({ kind: 'garbage', ...c })),
  },
);

const HEADER_TEMPLATES: [string, string][] = [
  ['x-tm-user-id', '{{victim.id}}'],
  ['x-tm-auth-ts', '{{own.now}}'],
  ['x-tm-auth-sig', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
  ['x-request-id', '{{victim.id}}'],
  ['x-forwarded-for', '10.0.0.1'],
  ['x-forwarded-host', 'evil.example'],
  ['x-forwarded-proto', 'https'],
  ['origin', 'http://evil.example'],
  ['origin', 'null'],
  ['sec-fetch-site', 'cross-site'],
  ['sec-fetch-site', 'same-origin'],
  ['referer', 'http://evil.example/'],
  ['authorization', 'Bearer {{victim.sid}}'],
  ['x-http-method-override', 'DELETE'],
  ['x-original-url', '/internal/users/me'],
  ['x-rewrite-url', '/internal/todos'],
  ['accept', 'text/html'],
  ['accept-encoding', 'gzip, deflate, br'],
  ['content-encoding', 'gzip'],
  ['x-user-id', '{{victim.id}}'],
];
const HEADER_NAMES = ['x-tm-user-id', 'x-tm-auth-ts', 'x-tm-auth-sig', 'x-request-id', 'origin', 'sec-fetch-site', 'accept', 'content-encoding', 'x-forwarded-for'];
const extraHeaders = fc.oneof(
  { weight: 3, arbitrary: fc.constant<[string, string][]>([]) },
  {
    weight: 2,
    arbitrary: fc.array(
      fc.oneof(
        fc.constantFrom(...HEADER_TEMPLATES),
        fc.tuple(fc.constantFrom(...HEADER_NAMES), fc.string({ maxLength: 60 }).map(headerSafe)),
      ),
      { maxLength: 3 },
    ),
  },
);

/** Percent-encodes what node:http refuses in a path (UTF-8, lone surrogates as their 3 bytes); keeps `%`, `?`, `#`. */
function wirePath(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i += 1) {
    const unit = raw.charCodeAt(i);
    if (unit > 0x20 && unit < 0x7f) {
      out += raw.charAt(i);
      continue;
    }
    let codePoint = unit;
    const next = raw.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      codePoint = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
      i += 1;
    }
    const bytes =
      codePoint < 0x80
        ? [codePoint]
        : codePoint < 0x800
          ? [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 63)]
          : codePoint < 0x10000
            ? [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 63), 0x80 | (codePoint & 63)]
            : [0xf0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 63), 0x80 | ((codePoint >> 6) & 63), 0x80 | (codePoint & 63)];
    out += bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** A random segment, fully percent-encoded (so `/`, `?` and `#` inside it stay data). */
const encodedSegment = fc.string({ unit: fc.oneof(anyCodeUnit, fc.constantFrom('/', '?', '#', '%', '.', '\\')), maxLength: 30 }).map((raw) =>
  wirePath(raw).replace(/[/?#%\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
);

const ID_TRICKS = [
  '../delete-todo/{{victim.todo0}}',
  '..%2f{{victim.todo0}}',
  '%2e%2e%2f{{victim.todo0}}',
  '%2E%2E/update-todo/{{victim.todo0}}',
  '{{victim.todo0}}/..',
  '{{victim.todo0}}%2f..%2f..%2finternal%2ftodos',
  '{{victim.todo0}}%00',
  '{{victim.todo0}}%2500',
  '{{victim.todo0}}%20',
  '%20{{victim.todo0}}',
  '{{victim.todo0}}%0a',
  '{{victim.todo0}};x=1',
  '{{victim.todo0}}.json',
  '{{victim.todo0}}/extra',
  '{{victim.todo0}}?todoId={{victim.todo1}}',
  '{{own.todo}}?todoId={{victim.todo0}}',
  '{{own.todo}}%23{{victim.todo0}}',
  '{{victim.todo0}}{{victim.todo1}}',
  '0x{{victim.todo0}}',
  '{{victim.TODO0}}',
  '{{victim.id}}',
  '%7B%22%24gt%22%3A%22%22%7D',
  '{"$gt":""}',
  '%7B%22%24ne%22%3Anull%7D',
  '*',
  '%',
  '%zz',
  '%c0%ae%c0%ae%2f',
  '..\\{{victim.todo0}}',
  '%5c..%5c{{victim.todo0}}',
  '．．／{{victim.todo0}}',
  '１２３４５６７８９０１２３４５６７８９０１２３４',
  '\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669\u0660\u0661\u0662\u0663\u0664',
  '{{victim.todo0}}\u200B',
  '\u202E{{victim.todo0}}',
  'null',
  'undefined',
  '[object Object]',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '',
  '.',
  '..',
];

const todoId = fc.oneof(
  { weight: 3, arbitrary: fc.constant('{{own.todo}}') },
  { weight: 3, arbitrary: fc.constantFrom('{{victim.todo0}}', '{{victim.todo1}}', '{{victim.todo2}}', '{{victim.TODO0}}') },
  { weight: 2, arbitrary: fc.stringMatching(/^[0-9a-fA-F]{24}$/) },
  { weight: 4, arbitrary: fc.constantFrom(...ID_TRICKS).map(wirePath) },
  { weight: 2, arbitrary: encodedSegment },
  { weight: 1, arbitrary: fc.integer({ min: 25, max: 7000 }).map((length) => 'a'.repeat(length)) },
);

const QUERIES = [
  '?userId={{victim.id}}',
  '?user_id={{victim.id}}&todoId={{victim.todo0}}',
  '?todoId[$ne]=x',
  '?__proto__[isAdmin]=1',
  '?constructor[prototype][isAdmin]=1',
  '?id={{victim.todo0}}&id={{own.todo}}',
  '?',
  '?%00',
  '?a=%zz',
];
const query = fc.oneof(
  { weight: 8, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.constantFrom(...QUERIES) },
  { weight: 1, arbitrary: fc.tuple(encodedSegment, encodedSegment).map(([k, v]) => `?${k}=${v}`) },
);

/** A fixed route's path, mostly as is, sometimes dressed up (trailing slash, case, `;`, encoded characters). */
function routePath(route: string): fc.Arbitrary<string> {
  const variants = [
    `${route}/`,
    route.toUpperCase(),
    `${route};x=1`,
    `${route}%00`,
    `${route}/..`,
    `${route}/.`,
    route.replace('/api/', '/api//'),
    route.replace('/api/', '/api/./'),
    route.replace(/\/([^/]+)$/, '%2f$1'),
    route.replace(/-/g, '%2D'),
    `${route}.json`,
    `${route}#x`,
  ];
  return fc.tuple(fc.oneof({ weight: 12, arbitrary: fc.constant(route) }, { weight: 1, arbitrary: fc.constantFrom(...variants) }), query).map(([p, q]) => p + q);
}

function idPath(prefix: string): fc.Arbitrary<string> {
  return fc.tuple(todoId, query, fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('/', '/x', '/..') })).map(
    ([id, q, tail]) => `${prefix}/${id}${tail}${q}`,
  );
}

function requests(
  methods: fc.Arbitrary<string>,
  paths: fc.Arbitrary<string>,
  body: fc.Arbitrary<Body>,
  creds: fc.Arbitrary<Credentials> = credentials,
): fc.Arbitrary<FuzzRequest> {
  return fc.record({ method: methods, path: paths, credentials: creds, headers: extraHeaders, body });
}

/** The route's own method mostly, sometimes another one. */
function methodOf(own: string): fc.Arbitrary<string> {
  return fc.oneof({ weight: 15, arbitrary: fc.constant(own) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') });
}

/** The body as the service would parse it (when it would parse it at all), to tell which requests reach a password check. */
function parsedBody(request: FuzzRequest): unknown {
  const { body } = request;
  if (body.kind === 'none') return undefined;
  try {
    const text = body.kind === 'text' ? fill(body.text) : Buffer.from(body.bytes).toString('utf8');
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Well-formed logins, password changes and account deletions cost a full password check each (Argon2id, ~15 ms of a core): the
 * main runs leave them out (they are below, with their own small budget).
 */
const notWellFormed = (schema: z.ZodType) => (request: FuzzRequest) => !schema.safeParse(parsedBody(request)).success;

/** Whether this request could act as the signed-in fuzzer (its session and XSRF token intact, same site). */
function carriesFuzzerSession(request: FuzzRequest): boolean {
  const { credentials: c } = request;
  const tokenOk = c.xsrf === 'own' || c.xsrf === 'padded';
  const crossSite = request.headers.some(([name, value]) => (name === 'origin' && value !== 'null') || (name === 'sec-fetch-site' && value === 'cross-site'));
  if (crossSite) return false;
  if (c.kind === 'own') return tokenOk;
  if (c.kind === 'forged') return tokenOk && c.sid === 'own' && c.sig === 'own' && c.xsrfCookie === 'own';
  return c.kind === 'garbage' && tokenOk && c.cookie.includes('{{own.');
}

/**
 * Whether the request could open the fuzzer's live stream (a signed-in GET of /api/todo/events): a stream
 * never ends, so the events campaign leaves every request carrying the fuzzer's session out (the stream
 * itself is tested in events.test.ts).
 */
function carriesFuzzerCookies(request: FuzzRequest): boolean {
  const { credentials: c } = request;
  return c.kind === 'own' || (c.kind === 'forged' && c.sid === 'own' && c.sig === 'own') || (c.kind === 'garbage' && c.cookie.includes('{{own.'));
}

interface Campaign {
  route: RouteName;
  runs: number;
  requests: () => fc.Arbitrary<FuzzRequest>;
}

const strongPassword = 'a long enough pass phrase 42';

const CAMPAIGNS: Campaign[] = [
  {
    route: 'signup',
    runs: 700,
    requests: () =>
      requests(
        methodOf('POST'),
        routePath('/api/user/signup'),
        bodies(aimedObjects(['fullName', 'email', 'password'], { fullName: 'Fuzz Person', email: '{{victim.email}}', password: strongPassword }, true)),
      ),
  },
  {
    route: 'login',
    runs: 700,
    requests: () =>
      requests(
        methodOf('POST'),
        routePath('/api/user/login'),
        bodies(aimedObjects(['email', 'password'], { email: '{{victim.email}}', password: 'a wrong guess' }, true)),
      ).filter(notWellFormed(LoginRequest)),
  },
  {
    route: 'logout',
    runs: 500,
    requests: () =>
      requests(methodOf('POST'), routePath('/api/user/logout'), bodies(aimedObjects(['userId', 'all'], { userId: '{{victim.id}}' }, true), { mostlyNone: true })).filter(
        (request) => !carriesFuzzerSession(request),
      ),
  },
  {
    route: 'logout-all',
    runs: 500,
    requests: () =>
      requests(methodOf('POST'), routePath('/api/user/logout-all'), bodies(aimedObjects(['userId'], { userId: '{{victim.id}}' }, true), { mostlyNone: true })).filter(
        (request) => !carriesFuzzerSession(request),
      ),
  },
  {
    route: 'me',
    runs: 800,
    requests: () => requests(methodOf('GET'), routePath('/api/user/me'), bodies(aimedObjects(['userId', '_id'], { userId: '{{victim.id}}' }, true), { mostlyNone: true })),
  },
  {
    route: 'password',
    runs: 700,
    requests: () =>
      requests(
        methodOf('PUT'),
        routePath('/api/user/password'),
        bodies(aimedObjects(['currentPassword', 'newPassword'], { currentPassword: 'not the password', newPassword: strongPassword }, true)),
      ).filter(notWellFormed(ChangePasswordRequest)),
  },
  {
    route: 'account',
    runs: 700,
    requests: () =>
      requests(methodOf('DELETE'), routePath('/api/user/account'), bodies(aimedObjects(['password', 'userId'], { password: 'not the password' }, true))).filter(
        notWellFormed(DeleteAccountRequest),
      ),
  },
  {
    route: 'fetch-todo',
    runs: 900,
    requests: () =>
      requests(methodOf('GET'), routePath('/api/todo/fetch-todo'), bodies(aimedObjects(['userId', 'todoId'], { userId: '{{victim.id}}' }, true), { mostlyNone: true })),
  },
  {
    route: 'add-todo',
    runs: 1300,
    // No victim identifiers in these bodies: a title is stored and read back by the fuzzer's own list.
    requests: () => requests(methodOf('POST'), routePath('/api/todo/add-todo'), bodies(aimedObjects(['title', 'userId', 'completed', 'isPinned'], { title: 'fuzzed task' }, false))),
  },
  {
    route: 'update-todo',
    runs: 1300,
    requests: () => {
      const patch = aimedObjects(['completed', 'isPinned', 'title', 'userId', '_id'], { completed: true }, true).map((text) => new RawJson(text));
      const patchValue = fc.oneof({ weight: 4, arbitrary: patch }, { weight: 1, arbitrary: value(true) });
      const aimed = fc.oneof(
        { weight: 3, arbitrary: fc.tuple(patchValue, extraPairs(true)).map(([updateData, extra]) => objectText([['updateData', updateData], ...extra])) },
        { weight: 1, arbitrary: aimedObjects(['updateData', 'todoId', 'userId'], { updateData: { completed: true } }, true) },
        { weight: 1, arbitrary: fc.constantFrom(objectText([['updateData', { isPinned: false }]]), objectText([['updateData', { completed: false, isPinned: true }]])) },
      );
      return requests(methodOf('PUT'), idPath('/api/todo/update-todo'), bodies(aimed));
    },
  },
  {
    route: 'delete-todo',
    runs: 1100,
    requests: () =>
      requests(methodOf('DELETE'), idPath('/api/todo/delete-todo'), bodies(aimedObjects(['todoId', 'userId'], { todoId: '{{victim.todo0}}' }, true), { mostlyNone: true })),
  },
  {
    route: 'restore-todo',
    runs: 700,
    requests: () =>
      requests(methodOf('POST'), idPath('/api/todo/restore-todo'), bodies(aimedObjects(['todoId', 'userId'], { todoId: '{{victim.todo0}}' }, true), { mostlyNone: true })),
  },
  {
    route: 'complete-all',
    runs: 700,
    requests: () =>
      requests(methodOf('PUT'), routePath('/api/todo/complete-all'), bodies(aimedObjects(['completed', 'userId', 'todoId'], { completed: true, userId: '{{victim.id}}' }, true))),
  },
  {
    route: 'clear-completed',
    runs: 500,
    requests: () =>
      requests(methodOf('DELETE'), routePath('/api/todo/clear-completed'), bodies(aimedObjects(['userId', 'completed'], { userId: '{{victim.id}}' }, true), { mostlyNone: true })),
  },
  {
    route: 'events',
    runs: 500,
    requests: () =>
      requests(methodOf('GET'), routePath('/api/todo/events'), bodies(aimedObjects(['after', 'userId'], { userId: '{{victim.id}}' }, true), { mostlyNone: true })).filter(
        (request) => !carriesFuzzerCookies(request),
      ),
  },
  {
    route: 'unknown',
    runs: 1100,
    requests: () => {
      const known = fc.constantFrom(
        'signup',
        'login',
        'me',
        'logout',
        'fetch-todo',
        'add-todo',
        'update-todo',
        'delete-todo',
        'restore-todo',
        'complete-all',
        'clear-completed',
        'events',
        'password',
        'account',
      );
      const paths = fc.oneof(
        fc.tuple(fc.constantFrom('/api/', '/api/user/', '/api/todo/', '/'), encodedSegment).map(([prefix, segment]) => prefix + segment),
        fc.tuple(fc.constantFrom('/api/user/', '/api/todo/'), known, encodedSegment).map(([prefix, name, segment]) => `${prefix}${name}/${segment}x`),
        fc.constantFrom(
          '/api',
          '/api/',
          '/api/internal/todos',
          '/api/internal/users/me',
          '/api/../internal/todos',
          '/api/user/..%2finternal%2fusers%2fverify-password',
          '/api/user/%2e%2e/internal/users/me',
          '/api/todo/%2e%2e/internal/todos',
          '/api/todo/..%2finternal/todos',
          '/api/todo/%2E%2E%2Finternal%2Ftodos',
          '/api/todo//internal/todos',
          '/api/todo/%5c..%5cinternal/todos',
          '/api/todo/%252e%252e%252finternal%252ftodos',
          '/internal/todos',
          '/internal/users/me',
          '/internal/users/verify-password',
          '/user/me',
          '/todo/fetch-todo',
          '/api/user',
          '/api/todo',
          '/api/todos/fetch-todo',
          '/api/users/me',
          '/api/user/me/{{victim.id}}',
          '/api/user/{{victim.id}}',
          '/api/todo/{{victim.todo0}}',
          '/api/todo/fetch-todo/{{victim.id}}',
          '/%2e%2e/api/user/me',
          '/static/../api/user/me',
          '/.env',
          '/api/user/.env',
          '/api/todo/%00',
        ),
      );
      const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');
      return requests(method, fc.tuple(paths, query).map(([p, q]) => p + q), bodies(aimedObjects(['userId', 'todoId'], { userId: '{{victim.id}}' }, true)));
    },
  },
];

/** Well-formed password checks, each a real Argon2id verification in svc-users: a few per route, all wrong. */
const PASSWORD_CHECKS: Campaign[] = [
  {
    route: 'login',
    runs: 6,
    requests: () =>
      requests(
        fc.constant('POST'),
        fc.constant('/api/user/login'),
        fc
          .record({
            email: fc.constantFrom('{{victim.email}}', '{{victim.EMAIL}}', '{{own.email}}', 'nobody@example.com'),
            password: fc.oneof(fc.string({ minLength: 1, maxLength: 128 }), fc.constantFrom('{{victim.id}}', '{{own.id}}', 'correct horse battery')),
            extra: extraPairs(true),
          })
          .map(({ email, password, extra }): Body => ({ kind: 'text', text: objectText([['email', email], ['password', password], ...extra]), contentType: 'application/json', chunked: false })),
      ).filter((request) => LoginRequest.safeParse(parsedBody(request)).success),
  },
  {
    route: 'password',
    runs: 6,
    requests: () =>
      requests(
        fc.constant('PUT'),
        fc.constant('/api/user/password'),
        fc
          .oneof(
            fc.record({ current: fc.string({ minLength: 1, maxLength: 128 }), next: fc.string({ minLength: 8, maxLength: 128 }), extra: extraPairs(true) }),
            // The right current password with a new one that must be refused (common, the email, the same).
            fc.record({
              current: fc.constant('{{own.password}}'),
              next: fc.constantFrom('password123', 'aaaaaaaa', '{{own.email}}', '{{own.password}}'),
              extra: extraPairs(true),
            }),
          )
          .map(({ current, next, extra }): Body => ({
            kind: 'text',
            text: objectText([['currentPassword', current], ['newPassword', next], ...extra]),
            contentType: 'application/json',
            chunked: false,
          })),
      ),
  },
  {
    route: 'account',
    runs: 6,
    requests: () =>
      requests(
        fc.constant('DELETE'),
        fc.constant('/api/user/account'),
        fc
          .record({ password: fc.oneof(fc.string({ minLength: 1, maxLength: 128 }), fc.constantFrom('{{victim.id}}', 'correct horse battery')), extra: extraPairs(true) })
          .map(({ password, extra }): Body => ({ kind: 'text', text: objectText([['password', password], ...extra]), contentType: 'application/json', chunked: false })),
      ),
  },
  {
    // A well-formed signup with a new email creates an account (allowed: 201) and signs this session in as it.
    route: 'signup',
    runs: 2,
    requests: () =>
      requests(
        fc.constant('POST'),
        fc.constant('/api/user/signup'),
        fc
          .record({ fullName: fc.string({ minLength: 1, maxLength: 50 }), email: fc.emailAddress(), password: fc.string({ minLength: 12, maxLength: 60 }) })
          .map((user): Body => ({ kind: 'text', text: JSON.stringify(user), contentType: 'application/json', chunked: false })),
      ),
  },
];

describe('fuzzing every route through the gateway', () => {
  it.each(CAMPAIGNS.map((campaign) => [campaign.route, campaign] as const))(
    '%s: generated requests never get a 5xx, never leak the victim\'s data, and write nothing when refused',
    async (_route, campaign) => {
      await fc.assert(
        fc.asyncProperty(campaign.requests(), (request) => exercise(campaign.route, request)),
        { numRuns: campaign.runs },
      );
    },
    120_000,
  );

  it('well-formed but wrong passwords: refused, nothing written, nothing leaked (each one a real password check)', async () => {
    for (const campaign of PASSWORD_CHECKS) {
      await fc.assert(
        fc.asyncProperty(campaign.requests(), (request) => exercise(campaign.route, request)),
        { numRuns: campaign.runs },
      );
    }
  }, 120_000);

  it('leaves the victim exactly as it was, and counts what was tried', async () => {
    const list = await victim.client.get<{ todos: { _id: string; title: string }[] }>('/api/todo/fetch-todo');
    expect(list.status).toBe(200);
    expect(list.body.todos.map((todo) => todo._id).sort()).toEqual([...victim.todoIds].sort());
    expect(list.body.todos.map((todo) => todo.title).sort()).toEqual([...victim.titles].sort());
    expect((await victim.client.get<UserResponse>('/api/user/me')).body.user._id).toBe(victim.id);

    const total = [...perRoute.values()].reduce((sum, n) => sum + n, 0);
    const routes = [...perRoute].map(([route, n]) => `${route} ${n}`).join(', ');
    const statuses = [...perStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ');
    console.log(`fuzz: ${total} requests through the gateway (per route: ${routes}), ${fiveHundreds} answered 5xx [statuses: ${statuses}]`);
    expect(fiveHundreds).toBe(0);
    expect(total).toBeGreaterThanOrEqual(10_000);
  });
});
