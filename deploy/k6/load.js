/**
 * Load test at a steady, realistic rate, three scenarios side by side:
 *  - browse: users working on their task list (fetch, add, complete, pin, delete), a constant arrival
 *    rate of BROWSE_RATE lists per second; each VU signs up its own account once, in its first iteration;
 *  - login: a fixed rate of full logins (visit, login, me, logout) on accounts made in setup(), 10 a second
 *    by default. Password hashing (Argon2id, ~15 ms of a core each) is
 *    still the most expensive call: it has its own scenario and rate, so it neither starves nor hides the
 *    task calls. `pnpm bench` (perf/bench/bench-hash.mjs) measures this scenario's rate on 2 cores;
 *  - streams: STREAM_VUS signed-in pages holding the live event stream (GET /api/todo/events) open,
 *    STREAM_SECONDS at a time, so what open streams cost the gateway and svc-todos shows in the figures
 *    of the other two. Each held stream ends by its own timeout (k6 reads responses whole): the error-rate
 *    thresholds are therefore per scenario, and streams are judged by `stream_held`.
 *
 *   k6 run -e BASE_URL=https://tasks.example.com deploy/k6/load.js
 *
 * The target must allow the sign-ins of this run: raise AUTH_RATE_LIMIT (per client IP, default 20/min)
 * on the gateway, see README.md. 429s are counted in `auth_rate_limited` and fail the run.
 */
import {
  browseTasks,
  createAccounts,
  ensureSignedIn,
  envInteger,
  envNumber,
  envString,
  holdEventStream,
  login,
  logout,
  me,
  newSession,
  visit,
} from './lib.js';

/**
 * @typedef {import('./lib.js').Account} Account
 * @typedef {{ accounts: Account[] }} SetupData
 */

const DURATION = envString('DURATION', '5m');
/** Task-list visits (5 task calls each) started per second. */
const BROWSE_RATE = envInteger('BROWSE_RATE', 5);
const BROWSE_VUS = envInteger('BROWSE_VUS', 10);
const BROWSE_MAX_VUS = envInteger('BROWSE_MAX_VUS', 100);
/** Logins started per LOGIN_TIME_UNIT: 10/s, under a fifth of what 2 cores sign in (docs/BENCHMARKS.md). */
const LOGIN_RATE = envInteger('LOGIN_RATE', 10);
const LOGIN_TIME_UNIT = envString('LOGIN_TIME_UNIT', '1s');
const LOGIN_VUS = envInteger('LOGIN_VUS', 5);
const LOGIN_MAX_VUS = envInteger('LOGIN_MAX_VUS', 20);
/** Accounts the login scenario cycles through (signed up in setup()). */
const LOGIN_ACCOUNTS = Math.max(1, envInteger('LOGIN_ACCOUNTS', 3));
/** Pages holding a live stream open, and how long each holds it before opening a new one. */
const STREAM_VUS = envInteger('STREAM_VUS', 20);
const STREAM_SECONDS = envInteger('STREAM_SECONDS', 30);
/**
 * p95 limits in milliseconds: task calls; login (one Argon2id hash); signup (one Argon2id hash and the
 * password-strength check, ~60 ms of svc-users' event loop each: the stream VUs all sign up at the start).
 * `pnpm bench` (perf/bench/bench-hash.mjs) measured on 2 cores: logins at this scenario's 10/s p95 69 ms, 20
 * signups at once p95 1.2 s. Before Argon2id, logins had 2 s.
 */
const TODO_P95_MS = envNumber('TODO_P95_MS', 300);
const AUTH_P95_MS = envNumber('AUTH_P95_MS', 500);
const SIGNUP_P95_MS = envNumber('SIGNUP_P95_MS', 2000);

/** @type {import('k6/options').Options} */
export const options = {
  setupTimeout: '2m',
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  scenarios: {
    browse: {
      executor: 'constant-arrival-rate',
      exec: 'browse',
      rate: BROWSE_RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: BROWSE_VUS,
      maxVUs: Math.max(BROWSE_VUS, BROWSE_MAX_VUS),
    },
    login: {
      executor: 'constant-arrival-rate',
      exec: 'signIn',
      rate: LOGIN_RATE,
      timeUnit: LOGIN_TIME_UNIT,
      duration: DURATION,
      preAllocatedVUs: LOGIN_VUS,
      maxVUs: Math.max(LOGIN_VUS, LOGIN_MAX_VUS),
    },
    streams: {
      executor: 'constant-vus',
      exec: 'stream',
      vus: STREAM_VUS,
      duration: DURATION,
      gracefulStop: `${STREAM_SECONDS + 5}s`,
    },
  },
  thresholds: {
    'http_req_failed{scenario:browse}': ['rate<0.01'],
    'http_req_failed{scenario:login}': ['rate<0.01'],
    stream_held: ['rate>0.99'],
    checks: ['rate>0.99'],
    'http_req_duration{name:fetch-todo}': [`p(95)<${TODO_P95_MS}`],
    'http_req_duration{name:add-todo}': [`p(95)<${TODO_P95_MS}`],
    'http_req_duration{name:update-todo}': [`p(95)<${TODO_P95_MS}`],
    'http_req_duration{name:delete-todo}': [`p(95)<${TODO_P95_MS}`],
    'http_req_duration{name:login}': [`p(95)<${AUTH_P95_MS}`],
    'http_req_duration{name:signup}': [`p(95)<${SIGNUP_P95_MS}`],
    // Any 429 means the run measured the rate limiter: raise AUTH_RATE_LIMIT on the target.
    auth_rate_limited: ['count==0'],
  },
};

/**
 * Sign up the accounts the login scenario uses (logged out again).
 * @returns {SetupData}
 */
export function setup() {
  return { accounts: createAccounts(LOGIN_ACCOUNTS, 'login', false).accounts };
}

/** Scenario `browse`: a signed-in user goes through the task list once. */
export function browse() {
  if (!ensureSignedIn('browse')) return;
  browseTasks();
}

/**
 * Scenario `login`: a full sign-in on a fresh session, then sign out again.
 * @param {SetupData} data
 */
export function signIn(data) {
  const account = data.accounts[Math.floor(Math.random() * data.accounts.length)];
  if (account === undefined) return;
  newSession();
  visit([401]);
  if (!login(account)) return;
  me(200, account.email);
  logout();
}

/** Scenario `streams`: a signed-in page keeps the live stream open (it signs up once, in its first iteration). */
export function stream() {
  if (!ensureSignedIn('stream')) return;
  holdEventStream(STREAM_SECONDS);
}

/** `k6 run --vus N --duration D load.js` (no scenarios) runs the browse flow. */
export default function () {
  browse();
}
