/* global __ENV, __VU, __ITER */
/**
 * Shared helpers of the k6 scripts (smoke.js, load.js, stress.js): configuration from the environment,
 * one cookie jar per VU that survives iterations, the XSRF double-submit header, one function per API
 * call that tags its request with the endpoint `name` (so thresholds per endpoint work) and checks
 * status AND body shape of every response.
 *
 * Written for k6 ≥ 0.48 with k6 built-ins only (no remote modules) and ES2017 syntax (no `?.`, `??`,
 * object spread, class fields, optional catch binding); type-checked by deploy/k6/tsconfig.json.
 */
import { check, sleep } from 'k6';
import http from 'k6/http';
import { Counter, Rate, Trend } from 'k6/metrics';

/**
 * @typedef {import('k6/http').Response} Response
 * @typedef {import('k6/http').CookieJar} CookieJar
 * @typedef {{ email: string, password: string, fullName: string }} Account
 * @typedef {{ [name: string]: string }} SessionCookies cookies of a signed-in session (see captureSession)
 * @typedef {{ completed?: boolean, isPinned?: boolean }} UpdateData
 * @typedef {'GET' | 'POST' | 'PUT' | 'DELETE'} Method
 * @typedef {object} CallSpec
 * @property {string} name endpoint tag (`tags.name`), e.g. `add-todo`; also names the checks
 * @property {number[]} expect statuses this call expects; any other counts in `http_req_failed`
 * @property {unknown} [body] JSON body (non-GET calls)
 * @property {boolean} [noXsrf] leave the X-XSRF-TOKEN header out (to check that the gateway refuses it)
 * @property {{ [name: string]: string }} [tags] extra tags
 * @typedef {{ [label: string]: (r: Response) => boolean }} Shape body checks, run only when the status matched
 */

// ---------------------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------------------

/**
 * A non-negative number from the environment (`-e NAME=…`), or the fallback when unset or empty.
 * @param {string} name
 * @param {number} fallback
 * @returns {number}
 */
export function envNumber(name, fallback) {
  const raw = __ENV[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/**
 * A non-negative whole number from the environment (k6 wants integers for rates and VU counts).
 * @param {string} name
 * @param {number} fallback
 * @returns {number}
 */
export function envInteger(name, fallback) {
  const value = envNumber(name, fallback);
  if (Math.floor(value) !== value) throw new Error(`${name} must be a whole number, got "${__ENV[name]}"`);
  return value;
}

/**
 * A string from the environment, or the fallback when unset or empty.
 * @param {string} name
 * @param {string} fallback
 * @returns {string}
 */
export function envString(name, fallback) {
  const raw = __ENV[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

/** The gateway's origin, without a trailing slash (`-e BASE_URL=https://tasks.example.com`). */
export const BASE_URL = envString('BASE_URL', 'http://localhost:8080').replace(/\/+$/, '');
/** Every call goes through the gateway under /api. */
export const API = `${BASE_URL}/api`;
/** Password of every account the scripts create (8–128 characters). */
export const PASSWORD = envString('PASSWORD', 'k6-load-test-password');
/** Mean pause between the calls of one iteration, in seconds (each pause is 0.5–1.5 × this). */
export const THINK_TIME = envNumber('THINK_TIME', 0.3);

/** Part of every email this VU creates: the run (RUN_ID or the start time) plus a random suffix. */
const RUN_ID = `${envString('RUN_ID', Date.now().toString(36))}${Math.random().toString(36).slice(2, 6)}`;
let emailSequence = 0;

/**
 * A new account with an email unique per run, VU and call (`k6.<run>.<label>.vu<N>.<n>@example.com`).
 * @param {string} label e.g. the scenario name
 * @returns {Account}
 */
export function uniqueAccount(label) {
  emailSequence += 1;
  return {
    email: `k6.${RUN_ID}.${label}.vu${__VU}.${emailSequence}@example.com`,
    password: PASSWORD,
    fullName: `k6 ${label} ${__VU}`,
  };
}

/**
 * Pause for about `THINK_TIME` seconds (nothing when THINK_TIME=0).
 * @param {number} [mean]
 */
export function think(mean) {
  const seconds = mean === undefined ? THINK_TIME : mean;
  if (seconds > 0) sleep(seconds * (0.5 + Math.random()));
}

// ---------------------------------------------------------------------------------------------------------
// Metrics
// ---------------------------------------------------------------------------------------------------------

/**
 * 429 answers of login and signup: the target's AUTH_RATE_LIMIT (per client IP, default 20/min) or its
 * signup limit (half of it per hour: 10 by default) was hit.
 * Counted apart from other failures: a run with any of them measured the limiter, not the app.
 */
export const authRateLimited = new Counter('auth_rate_limited');
/** Duration of the task calls only (fetch/add/update/delete): stress.js reads it per load step. */
export const todoDuration = new Trend('todo_req_duration', true);

// ---------------------------------------------------------------------------------------------------------
// Session: one cookie jar per VU, kept across iterations
// ---------------------------------------------------------------------------------------------------------

// k6 empties its default per-VU jar (`http.cookieJar()`) after every iteration unless `noCookiesReset` is
// set; this module keeps its own jar instead, so a VU signs in once and stays signed in.
/** @type {CookieJar | undefined} */
let jar;
/** Whether this VU's session is signed in (set by signup/login, cleared by logout or a 401). */
let signedIn = false;

/** @returns {CookieJar} */
function sessionJar() {
  if (jar === undefined) jar = new http.CookieJar();
  return jar;
}

/** Drop this VU's cookies and start over signed out (the next call opens a new session). */
export function newSession() {
  jar = new http.CookieJar();
  signedIn = false;
}

/** @returns {boolean} */
export function isSignedIn() {
  return signedIn;
}

/**
 * The XSRF-TOKEN cookie of this VU's session ('' before the first visit). Read again before every
 * non-GET call: signup, login and logout rotate it.
 * @returns {string}
 */
export function xsrfToken() {
  const values = sessionJar().cookiesForURL(`${API}/`)['XSRF-TOKEN'];
  const first = values === undefined ? undefined : values[0];
  return first === undefined ? '' : first;
}

/**
 * The cookies of this VU's session (session id, its signature and the XSRF token), to hand a signed-in
 * session from setup() to the VUs.
 * @returns {SessionCookies}
 */
export function captureSession() {
  const all = sessionJar().cookiesForURL(`${API}/`);
  /** @type {SessionCookies} */
  const cookies = {};
  Object.keys(all).forEach((name) => {
    const values = all[name];
    const first = values === undefined ? undefined : values[0];
    if (first !== undefined) cookies[name] = first;
  });
  return cookies;
}

/**
 * Start this VU on a session captured by captureSession() (several VUs may share one).
 * @param {SessionCookies} cookies
 */
export function adoptSession(cookies) {
  newSession();
  const target = sessionJar();
  Object.keys(cookies).forEach((name) => {
    const value = cookies[name];
    if (value !== undefined) target.set(`${BASE_URL}/`, name, value, { path: '/' });
  });
  signedIn = xsrfToken() !== '';
}

// ---------------------------------------------------------------------------------------------------------
// Requests and checks
// ---------------------------------------------------------------------------------------------------------

/** @type {{ [statuses: string]: ReturnType<typeof http.expectedStatuses> }} */
const responseCallbacks = {};

/**
 * `http.expectedStatuses(...)` for these statuses, created once per set.
 * @param {number[]} statuses
 */
function expectedStatuses(statuses) {
  const key = statuses.join(',');
  let callback = responseCallbacks[key];
  if (callback === undefined) {
    callback = http.expectedStatuses(...statuses);
    responseCallbacks[key] = callback;
  }
  return callback;
}

/**
 * One call to the API through this VU's jar: JSON body, X-XSRF-TOKEN on every non-GET, the endpoint
 * name as tag, and only the expected statuses counted as successes in `http_req_failed`.
 * @param {Method} method
 * @param {string} path under /api, e.g. `/todo/fetch-todo`
 * @param {CallSpec} spec
 * @returns {Response}
 */
export function apiCall(method, path, spec) {
  /** @type {{ [name: string]: string }} */
  const headers = { Accept: 'application/json' };
  /** @type {string | null} */
  let body = null;
  if (method !== 'GET' && !spec.noXsrf) headers['X-XSRF-TOKEN'] = xsrfToken();
  if (spec.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(spec.body);
  }
  const tags = Object.assign({ name: spec.name }, spec.tags || {});
  const res = http.request(method, `${API}${path}`, body, {
    jar: sessionJar(),
    headers,
    tags,
    responseCallback: expectedStatuses(spec.expect),
  });
  if (path.indexOf('/todo/') === 0) {
    if (!spec.noXsrf) todoDuration.add(res.timings.duration, tags);
    // An expired or lost session: sign in again on the next iteration.
    if (res.status === 401) signedIn = false;
  }
  return res;
}

/**
 * The JSON value at a gjson selector (`todo._id`, `todos.#._id`), or undefined when the body is missing
 * (request error), not JSON, or has nothing there. Never throws.
 * @param {Response} res
 * @param {string} selector
 * @returns {import('k6').JSONValue | undefined}
 */
export function jsonAt(res, selector) {
  if (res.body === null || res.body === undefined) return undefined;
  return res.json(selector);
}

/** @param {unknown} value */
function isObjectId(value) {
  return typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);
}

/** @param {Response} r */
function hasMessage(r) {
  return typeof jsonAt(r, 'message') === 'string';
}

/**
 * Check one response: its status is one of `statuses`, and (when it is) the body has the given shape.
 * The checks are tagged with the endpoint name (`checks{name:add-todo}`).
 * @param {Response} res
 * @param {string} name endpoint name, prefixes every check
 * @param {number[]} statuses
 * @param {Shape} [shape]
 * @returns {boolean} whether every check passed
 */
export function expectResponse(res, name, statuses, shape) {
  const statusOk = statuses.indexOf(res.status) !== -1;
  /** @type {import('k6').Checkers<Response>} */
  const checks = {};
  checks[`${name}: status ${statuses.join('|')}`] = () => statusOk;
  if (shape !== undefined) {
    Object.keys(shape).forEach((label) => {
      const test = shape[label];
      if (test !== undefined) checks[`${name}: ${label}`] = (r) => statusOk && test(r);
    });
  }
  return check(res, checks, { name });
}

/** Status of the last signup or login (for setup's error message). */
let lastAuthStatus = 0;

/**
 * 429 from login or signup: count it apart and honour a short Retry-After.
 * @param {Response} res
 * @param {string} name
 */
function noteRateLimit(res, name) {
  if (res.status !== 429) return;
  authRateLimited.add(1, { name });
  const retryAfter = Number(res.headers['Retry-After']);
  sleep(isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 5) : 1);
}

// ---------------------------------------------------------------------------------------------------------
// The API, one function per call
// ---------------------------------------------------------------------------------------------------------

/**
 * First visit: `GET /api/user/me` (401 signed out, 200 signed in) opens the session and sets the
 * XSRF-TOKEN cookie.
 * @param {number[]} [statuses] what to expect; default 200 or 401
 * @returns {Response}
 */
export function visit(statuses) {
  const expect = statuses === undefined ? [200, 401] : statuses;
  const res = apiCall('GET', '/user/me', { name: 'visit', expect });
  expectResponse(res, 'visit', expect, { 'XSRF-TOKEN cookie set': () => xsrfToken() !== '' });
  return res;
}

/**
 * `POST /api/user/signup` → 201 `{message, user}`, signed in (session and XSRF token rotated).
 * @param {Account} account
 * @returns {boolean} whether it succeeded
 */
export function signup(account) {
  const before = xsrfToken();
  const res = apiCall('POST', '/user/signup', { name: 'signup', expect: [201], body: account });
  lastAuthStatus = res.status;
  noteRateLimit(res, 'signup');
  const ok = expectResponse(res, 'signup', [201], {
    'user._id': (r) => isObjectId(jsonAt(r, 'user._id')),
    'user.email': (r) => jsonAt(r, 'user.email') === account.email.toLowerCase(),
    'XSRF-TOKEN rotated': () => xsrfToken() !== '' && xsrfToken() !== before,
  });
  if (res.status === 201) signedIn = true;
  return ok;
}

/**
 * `POST /api/user/login` → 200 `{message, user}` (session and XSRF token rotated).
 * @param {{ email: string, password: string }} account
 * @returns {boolean} whether it succeeded
 */
export function login(account) {
  const before = xsrfToken();
  const res = apiCall('POST', '/user/login', {
    name: 'login',
    expect: [200],
    body: { email: account.email, password: account.password },
  });
  lastAuthStatus = res.status;
  noteRateLimit(res, 'login');
  const ok = expectResponse(res, 'login', [200], {
    'user._id': (r) => isObjectId(jsonAt(r, 'user._id')),
    'user.email': (r) => jsonAt(r, 'user.email') === account.email.toLowerCase(),
    'XSRF-TOKEN rotated': () => xsrfToken() !== '' && xsrfToken() !== before,
  });
  if (res.status === 200) signedIn = true;
  return ok;
}

/**
 * `GET /api/user/me`: 200 `{message, user}` signed in, 401 `{message}` signed out.
 * @param {200 | 401} status the expected answer
 * @param {string} [email] when given, the signed-in user's email must be this
 * @returns {boolean}
 */
export function me(status, email) {
  const res = apiCall('GET', '/user/me', { name: 'me', expect: [status] });
  if (status === 401) return expectResponse(res, 'me', [401], { 'error message': hasMessage });
  return expectResponse(res, 'me', [200], {
    'user._id': (r) => isObjectId(jsonAt(r, 'user._id')),
    'user.email': (r) => (email === undefined ? typeof jsonAt(r, 'user.email') === 'string' : jsonAt(r, 'user.email') === email.toLowerCase()),
  });
}

/**
 * `POST /api/user/logout` → 200 `{message}`; the session is destroyed server-side.
 * @returns {boolean}
 */
export function logout() {
  const res = apiCall('POST', '/user/logout', { name: 'logout', expect: [200] });
  if (res.status === 200) signedIn = false;
  return expectResponse(res, 'logout', [200], { message: hasMessage });
}

/**
 * `GET /api/todo/fetch-todo` → 200 `{todos: [...]}`, pinned first, then newest first.
 * @returns {string[] | undefined} the ids in the order received, undefined on failure
 */
export function fetchTodos() {
  const res = apiCall('GET', '/todo/fetch-todo', { name: 'fetch-todo', expect: [200] });
  const ok = expectResponse(res, 'fetch-todo', [200], {
    'todos is an array': (r) => Array.isArray(jsonAt(r, 'todos')),
  });
  const ids = jsonAt(res, 'todos.#._id');
  if (!ok || !Array.isArray(ids)) return undefined;
  return ids.map((id) => String(id));
}

/**
 * `POST /api/todo/add-todo {title}` → 201 `{message, todo}`.
 * @param {string} title
 * @returns {string} the new task's id, '' on failure
 */
export function addTodo(title) {
  const res = apiCall('POST', '/todo/add-todo', { name: 'add-todo', expect: [201], body: { title } });
  const ok = expectResponse(res, 'add-todo', [201], {
    'todo._id': (r) => isObjectId(jsonAt(r, 'todo._id')),
    'todo.title': (r) => jsonAt(r, 'todo.title') === title,
    'todo not completed, not pinned': (r) => jsonAt(r, 'todo.completed') === false && jsonAt(r, 'todo.isPinned') === false,
  });
  const id = jsonAt(res, 'todo._id');
  return ok && typeof id === 'string' ? id : '';
}

/**
 * `PUT /api/todo/update-todo/<id> {updateData}` → 200 `{message, todo}` with the values set.
 * Tagged `name: update-todo` whatever the change, plus `action` (e.g. `complete`, `pin`).
 * @param {string} id
 * @param {UpdateData} updateData
 * @param {string} action
 * @returns {boolean}
 */
export function updateTodo(id, updateData, action) {
  const res = apiCall('PUT', `/todo/update-todo/${id}`, {
    name: 'update-todo',
    expect: [200],
    body: { updateData },
    tags: { action },
  });
  return expectResponse(res, 'update-todo', [200], {
    'todo._id unchanged': (r) => jsonAt(r, 'todo._id') === id,
    'values set': (r) =>
      (updateData.completed === undefined || jsonAt(r, 'todo.completed') === updateData.completed) &&
      (updateData.isPinned === undefined || jsonAt(r, 'todo.isPinned') === updateData.isPinned),
  });
}

/**
 * `DELETE /api/todo/delete-todo/<id>` → 200 `{message}`.
 * @param {string} id
 * @returns {boolean}
 */
export function deleteTodo(id) {
  const res = apiCall('DELETE', `/todo/delete-todo/${id}`, { name: 'delete-todo', expect: [200] });
  return expectResponse(res, 'delete-todo', [200], { message: hasMessage });
}

// ---------------------------------------------------------------------------------------------------------
// Flows
// ---------------------------------------------------------------------------------------------------------

/** Live streams held open for their whole planned time (a stream cut short by the server counts false). */
export const streamHeld = new Rate('stream_held');

/**
 * k6 error code of a request that ran into its own `timeout`: for a live stream held open on purpose, that
 * is the expected end (k6 has no streaming reads; the response is read until the timeout).
 */
const REQUEST_TIMEOUT_ERROR = 1050;

/**
 * Hold `GET /api/todo/events` (Server-Sent Events) open for `seconds`, as a page with the list open does. k6
 * reads a response whole, so the request ends by its own timeout; that end is the success. Its
 * `http_req_failed` entry is that timeout, which is why load.js puts its error-rate thresholds on the other
 * scenarios and judges streams by `stream_held` instead.
 * @param {number} seconds
 * @returns {boolean} whether the stream stayed open until the timeout
 */
export function holdEventStream(seconds) {
  const res = http.get(`${API}/todo/events`, {
    jar: sessionJar(),
    headers: { Accept: 'text/event-stream' },
    tags: { name: 'todo-events' },
    timeout: `${seconds}s`,
  });
  const held = res.error_code === REQUEST_TIMEOUT_ERROR;
  streamHeld.add(held);
  if (res.status === 401) signedIn = false;
  check(res, { 'todo-events: held open until the planned end': () => held });
  return held;
}

/**
 * Make sure this VU is signed in: on its first iteration (or after its session was lost) visit, then
 * sign up a new account (or log in to `account` when given). Password hashing costs ~450 ms of a
 * svc-users core, so this runs once per VU, not per iteration.
 * @param {string} label part of the new account's email (e.g. the scenario name)
 * @param {Account} [account] log in to this account instead of signing up a new one
 * @returns {boolean} whether the VU is signed in
 */
export function ensureSignedIn(label, account) {
  if (signedIn) return true;
  newSession();
  visit([401]);
  return account === undefined ? signup(uniqueAccount(label)) : login(account);
}

/**
 * One visit of the task list by a signed-in user: fetch, add, complete, pin, delete, with short pauses.
 * @param {number} [thinkTime] mean pause in seconds (default THINK_TIME)
 * @returns {boolean} whether every call succeeded
 */
export function browseTasks(thinkTime) {
  if (fetchTodos() === undefined) return false;
  think(thinkTime);
  const id = addTodo(`k6 task ${__VU}-${__ITER}`);
  if (id === '') return false;
  think(thinkTime);
  const completed = updateTodo(id, { completed: true }, 'complete');
  think(thinkTime);
  const pinned = updateTodo(id, { isPinned: true }, 'pin');
  think(thinkTime);
  const deleted = deleteTodo(id);
  return completed && pinned && deleted;
}

/**
 * Sign up `count` new accounts, each in its own session (setup() of load.js and stress.js). Throws with a
 * clear message when the target refuses, so the run stops before measuring anything.
 * @param {number} count
 * @param {string} label
 * @param {boolean} keepSignedIn false: log each one out; true: keep the sessions (see `sessions`)
 * @returns {{ accounts: Account[], sessions: SessionCookies[] }}
 */
export function createAccounts(count, label, keepSignedIn) {
  /** @type {Account[]} */
  const accounts = [];
  /** @type {SessionCookies[]} */
  const sessions = [];
  for (let i = 0; i < count; i += 1) {
    newSession();
    const first = visit([401]);
    if (first.status !== 401 || xsrfToken() === '') {
      throw new Error(`setup: GET ${API}/user/me answered ${first.status} ${first.error} (is BASE_URL right?)`);
    }
    const account = uniqueAccount(label);
    if (!signup(account)) {
      throw new Error(
        `setup: signup of ${account.email} answered ${lastAuthStatus}` +
          (lastAuthStatus === 429
            ? ': AUTH_RATE_LIMIT on the target is too low for this run (it sets the signup limit too), raise it (deploy/k6/README.md)'
            : ' (see the failed checks)'),
      );
    }
    accounts.push(account);
    if (keepSignedIn) sessions.push(captureSession());
    else logout();
  }
  newSession();
  return { accounts, sessions };
}
