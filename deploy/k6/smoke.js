/**
 * Smoke test: one VU walks through every call of the API once per iteration and checks each answer.
 * Cheap enough for any environment (2 signups + 2 logins with the defaults, under the default
 * AUTH_RATE_LIMIT of 20 per minute).
 *
 *   k6 run -e BASE_URL=http://localhost:8080 deploy/k6/smoke.js
 *
 * Env: BASE_URL (http://localhost:8080), ITERATIONS (2), PASSWORD, RUN_ID.
 */
import { check, group, sleep } from 'k6';
import {
  addTodo,
  apiCall,
  deleteTodo,
  envNumber,
  expectResponse,
  fetchTodos,
  jsonAt,
  login,
  logout,
  me,
  newSession,
  signup,
  uniqueAccount,
  updateTodo,
  visit,
} from './lib.js';

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    smoke: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: envNumber('ITERATIONS', 2),
      maxDuration: '2m',
    },
  },
  thresholds: {
    // A smoke test passes only when everything passed.
    http_req_failed: ['rate==0'],
    checks: ['rate==1'],
    auth_rate_limited: ['count==0'],
  },
};

/**
 * Check the ids a fetch-todo returned (undefined when the fetch itself failed).
 * @param {string[] | undefined} ids
 * @param {string} label
 * @param {(ids: string[]) => boolean} test
 */
function expectList(ids, label, test) {
  check(ids, { [`fetch-todo: ${label}`]: (list) => list !== undefined && test(list) }, { name: 'fetch-todo' });
}

export default function () {
  // A fresh session per iteration: this script tests signing in, not a long-lived session.
  newSession();
  const account = uniqueAccount('smoke');

  group('signed out', () => {
    visit([401]);
    // The gateway refuses a non-GET call without the X-XSRF-TOKEN header.
    const refused = apiCall('POST', '/todo/add-todo', {
      name: 'add-todo-without-xsrf',
      expect: [403],
      body: { title: 'must be refused' },
      noXsrf: true,
    });
    expectResponse(refused, 'add-todo-without-xsrf', [403], {
      'error code': (r) => typeof jsonAt(r, 'code') === 'string',
    });
  });

  const signedUp = group('sign up', () => {
    const ok = signup(account);
    me(200, account.email);
    return ok;
  });
  if (!signedUp) return;

  group('tasks', () => {
    const id = addTodo('smoke task one');
    const newer = addTodo('smoke task two');
    if (id === '' || newer === '') return;
    expectList(fetchTodos(), 'newest first', (ids) => ids.length === 2 && ids[0] === newer && ids[1] === id);
    updateTodo(id, { completed: true }, 'complete');
    updateTodo(id, { isPinned: true }, 'pin');
    expectList(fetchTodos(), 'pinned first', (ids) => ids.length === 2 && ids[0] === id && ids[1] === newer);
    deleteTodo(id);
    deleteTodo(newer);
    expectList(fetchTodos(), 'deleted tasks gone', (ids) => ids.length === 0);
  });

  group('log out, log in', () => {
    logout();
    me(401);
    login(account);
    me(200, account.email);
    logout();
    me(401);
  });

  sleep(1);
}
