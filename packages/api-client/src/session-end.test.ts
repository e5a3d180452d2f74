import { AxiosError } from 'axios';
import { anotherDevice } from './another-device.test-helpers';
import {
  addTodo,
  asSessionEndReason,
  createHttpClient,
  fetchCurrentUser,
  fetchTodos,
  forgetSessionEnd,
  isSessionEnded,
  login,
  logFailure,
  logout,
  peekSessionEnd,
  rememberSessionEnd,
  sessionEndReason,
  signup,
} from './index.js';

/**
 * Why a session ended: read from the REAL gateway's 401 (a second "device" talks to it from Node),
 * and carried to the sign-in screen in this tab's sessionStorage (`tm.sessionEnd`).
 */

let seq = 0;
function newAccount() {
  seq += 1;
  return { fullName: 'Ended Elsewhere', email: `ended-${Date.now()}-${seq}-${Math.random().toString(36).slice(2, 8)}@example.com`, password: 'correct horse battery' };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value: unknown) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** Signs a new account up in this page (jsdom's cookies), and the same account in on another device. */
async function signedInTwice() {
  const account = newAccount();
  await fetchCurrentUser();
  await signup(account);
  return { account, otherDevice: await anotherDevice(account.email, account.password) };
}

afterEach(() => {
  forgetSessionEnd();
  sessionStorage.clear();
});

describe('the carried reason (tm.sessionEnd)', () => {
  it('keeps a reason, or that the session ended without one, until forgotten; only under its own key', () => {
    sessionStorage.setItem('tm:draft:someone', 'a draft');
    expect(peekSessionEnd()).toBeUndefined();
    rememberSessionEnd('password-changed');
    expect(sessionStorage.getItem('tm.sessionEnd')).toBe('password-changed');
    expect(peekSessionEnd()).toEqual({ reason: 'password-changed' });
    // Reading does not forget.
    expect(peekSessionEnd()).toEqual({ reason: 'password-changed' });
    rememberSessionEnd(undefined);
    expect(peekSessionEnd()).toEqual({});
    forgetSessionEnd();
    expect(peekSessionEnd()).toBeUndefined();
    expect(sessionStorage.getItem('tm:draft:someone')).toBe('a draft');
  });

  it('reads a value it does not know (a later version wrote it) as "ended", without a reason', () => {
    sessionStorage.setItem('tm.sessionEnd', 'a reason of a later version');
    expect(peekSessionEnd()).toEqual({});
    expect(asSessionEndReason('a reason of a later version')).toBeUndefined();
    expect(asSessionEndReason('account-deleted')).toBe('account-deleted');
    expect(asSessionEndReason(42)).toBeUndefined();
  });

  it('storage that refuses costs the reason, never the call', () => {
    const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    try {
      expect(() => rememberSessionEnd('signed-out')).not.toThrow();
    } finally {
      setItem.mockRestore();
    }
    expect(peekSessionEnd()).toBeUndefined();
  });
});

describe('sessionEndReason on the real gateway', () => {
  it('reads `password-changed` from the 401 after the password was changed on another device', async () => {
    const { account, otherDevice } = await signedInTwice();
    expect((await otherDevice('PUT', '/api/user/password', { currentPassword: account.password, newPassword: 'violet tractor sings at midnight' })).status).toBe(200);

    const error = await failureOf(fetchTodos());
    expect(isSessionEnded(error)).toBe(true);
    expect(sessionEndReason(error)).toBe('password-changed');
    // A write with the ended session's XSRF token says the same (a 401, not a 403).
    const write = await failureOf(addTodo('after the change'));
    expect(sessionEndReason(write)).toBe('password-changed');
  });

  it('says nothing for a visitor, a wrong password, or anything that is not a 401', async () => {
    await logout().catch(() => undefined);
    const visitor = await failureOf(fetchTodos());
    expect(isSessionEnded(visitor)).toBe(true);
    expect(sessionEndReason(visitor)).toBeUndefined();
    const account = newAccount();
    await signup(account);
    await logout();
    expect(sessionEndReason(await failureOf(login({ email: account.email, password: 'not the password' })))).toBeUndefined();
    await login(account);
    expect(sessionEndReason(await failureOf(addTodo('\u200B')))).toBeUndefined();
    expect(sessionEndReason(new Error('boom'))).toBeUndefined();
  });

  it('the current-user check of a page whose session ended elsewhere (a reload) returns null and tells the sign-in screen why, once', async () => {
    const { otherDevice } = await signedInTwice();
    expect((await otherDevice('POST', '/api/user/logout-all')).status).toBe(200);
    const info = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await fetchCurrentUser()).toBeNull();
      expect(peekSessionEnd()).toEqual({ reason: 'signed-out-everywhere' });
      forgetSessionEnd();
      // The gateway expired the dead cookie with that answer: the next check is a plain visitor's.
      expect(await fetchCurrentUser()).toBeNull();
      expect(peekSessionEnd()).toBeUndefined();
      // An expected 401 is not a failure to log.
      expect(info).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    } finally {
      info.mockRestore();
      error.mockRestore();
    }
  });
});

describe('logFailure (expected failures are quiet)', () => {
  let info: jest.SpyInstance;
  let error: jest.SpyInstance;
  beforeEach(() => {
    info = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    info.mockRestore();
    error.mockRestore();
  });

  it('logs an answer the app explains (a 401, a refused input) as one line, without the error and its stack', async () => {
    await logout().catch(() => undefined);
    logFailure('Loading the tasks failed', await failureOf(fetchTodos()));
    await fetchCurrentUser();
    logFailure('Signing up failed', await failureOf(signup({ ...newAccount(), password: 'short' })));
    expect(info.mock.calls).toEqual([['Loading the tasks failed: 401'], ['Signing up failed: 400']]);
    expect(error).not.toHaveBeenCalled();
  });

  it('logs nothing for a call the page cancelled itself', async () => {
    const controller = new AbortController();
    const pending = failureOf(fetchCurrentUser({ signal: controller.signal }));
    controller.abort();
    expect(await pending).toMatchObject({ code: 'ERR_CANCELED' });
    expect(info).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  it('logs a real failure (no answer) as an error with its detail', async () => {
    // Nothing listens on port 1 (timeout 0: jsdom would keep its XHR timer running after the network error).
    const failure = await failureOf(createHttpClient('http://127.0.0.1:1/api').get('/user/me', { timeout: 0 }));
    error.mockClear();
    logFailure('Checking the current user failed', failure);
    expect(error).toHaveBeenCalledWith('Checking the current user failed', expect.any(AxiosError));
    expect(info).not.toHaveBeenCalled();
  });
});
