import { ErrorCode } from '@tm/contracts';
import axios, { AxiosError } from 'axios';
import {
  OFFLINE_MESSAGE,
  TIMEOUT_MESSAGE,
  addTodo,
  createHttpClient,
  describeError,
  errorMessage,
  fetchCurrentUser,
  fetchTodos,
  isOffline,
  isSessionEnded,
  isTimeout,
  isValidationError,
  login,
  retryAfterSeconds,
  tooManyAttemptsMessage,
  logout,
  signup,
  statusOf,
  validationIssues,
} from './index.js';

/**
 * The error helpers judged on REAL failures from the test gateway (jsdom's origin): a signed-out 401, a
 * wrong-password 401, a validation 400, a client timeout, a refused connection, and the offline refusal.
 */

const FALLBACK = 'Something went wrong';

let seq = 0;
function newAccount() {
  seq += 1;
  return { fullName: 'Errors Test', email: `errors-${Date.now()}-${seq}-${Math.random().toString(36).slice(2, 8)}@example.com`, password: 'correct horse battery' };
}

/** The rejection of `promise` (fails the test when it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<AxiosError> {
  const outcome = await promise.then(
    (value: unknown) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  expect(axios.isAxiosError(outcome.error)).toBe(true);
  return outcome.error as AxiosError;
}

/** Makes jsdom's navigator report offline until the returned function is called. */
function goOffline(): () => void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => false });
  return () => {
    // The real getter lives on Navigator.prototype; removing the own property brings it back.
    delete (window.navigator as { onLine?: boolean }).onLine;
  };
}

describe('error helpers on real failures from the gateway', () => {
  let goOnline: (() => void) | undefined;
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    // jsdom reports a refused connection on the console; the tests assert it instead.
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    consoleError.mockRestore();
    goOnline?.();
    goOnline = undefined;
    expect(navigator.onLine).toBe(true);
  });

  it('a 401 from a task call while signed out is a session that ended', async () => {
    expect(await fetchCurrentUser()).toBeNull();
    const error = await failureOf(fetchTodos());
    expect(statusOf(error)).toBe(401);
    expect(error.response?.data).toMatchObject({ code: ErrorCode.unauthenticated });
    expect(isSessionEnded(error)).toBe(true);
    expect(isValidationError(error)).toBe(false);
    expect(isOffline(error)).toBe(false);
    expect(isTimeout(error)).toBe(false);
    expect(describeError(error, FALLBACK)).toBe('Not signed in');
  });

  it('a 401 of a wrong password is NOT a session that ended', async () => {
    const account = newAccount();
    await fetchCurrentUser(); // the XSRF cookie
    await signup(account);
    await logout();
    const error = await failureOf(login({ email: account.email, password: 'not the password' }));
    expect(statusOf(error)).toBe(401);
    expect(error.response?.data).toMatchObject({ code: ErrorCode.invalidCredentials });
    expect(isSessionEnded(error)).toBe(false);
    expect(isValidationError(error)).toBe(false);
    expect(describeError(error, FALLBACK)).toBe('Invalid email or password');
    expect(errorMessage(error, FALLBACK)).toBe('Invalid email or password');
  });

  it('a 400 of the server validation carries the message to show (a title of only a zero-width space)', async () => {
    await fetchCurrentUser();
    await signup(newAccount());
    const error = await failureOf(addTodo('\u200B'));
    expect(statusOf(error)).toBe(400);
    expect(error.response?.data).toMatchObject({ code: ErrorCode.validation });
    expect(isValidationError(error)).toBe(true);
    expect(isSessionEnded(error)).toBe(false);
    expect(isOffline(error)).toBe(false);
    expect(isTimeout(error)).toBe(false);
    expect(describeError(error, FALLBACK)).toBe('Enter a task before adding it.');
    // The server refused it: nothing was stored.
    expect(await fetchTodos()).toEqual([]);
  });

  it('a request the server does not answer in time is a timeout, with its own words', async () => {
    const account = newAccount();
    await fetchCurrentUser();
    await signup(account);
    const client = createHttpClient();
    // A login checks a password hash: the real server cannot answer within 1 ms.
    const error = await failureOf(client.post('/user/login', { email: account.email, password: 'not the password' }, { timeout: 1 }));
    expect(error.response).toBeUndefined();
    expect([AxiosError.ECONNABORTED, AxiosError.ETIMEDOUT]).toContain(error.code);
    expect(isTimeout(error)).toBe(true);
    expect(isOffline(error)).toBe(false);
    expect(isSessionEnded(error)).toBe(false);
    expect(describeError(error, FALLBACK)).toBe(TIMEOUT_MESSAGE);
    expect(TIMEOUT_MESSAGE).toBe('The server did not answer in time. Please try again.');
  });

  it('a connection refused while online is neither offline nor a timeout; the same failure once offline is offline', async () => {
    // Nothing listens on port 1: the browser reports a network error, without a response. (timeout 0:
    // jsdom leaves the XHR timeout timer running after a network error, which would hold jest for 10 s.)
    const client = createHttpClient('http://127.0.0.1:1/api');
    const error = await failureOf(client.get('/user/me', { timeout: 0 }));
    expect(consoleError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('ECONNREFUSED') }));
    expect(error.code).toBe(AxiosError.ERR_NETWORK);
    expect(error.response).toBeUndefined();
    expect(isOffline(error)).toBe(false);
    expect(isTimeout(error)).toBe(false);
    expect(describeError(error, FALLBACK)).toBe(FALLBACK);
    // The browser went offline while the call was under way: the network error is read as "offline".
    goOnline = goOffline();
    expect(isOffline(error)).toBe(true);
    expect(describeError(error, FALLBACK)).toBe(OFFLINE_MESSAGE);
  });

  it('offline, a call is refused at once with ERR_OFFLINE and never reaches the server', async () => {
    await fetchCurrentUser();
    const { user } = await signup(newAccount());
    expect(await fetchTodos()).toEqual([]);

    const open = jest.spyOn(XMLHttpRequest.prototype, 'open');
    goOnline = goOffline();
    try {
      const error = await failureOf(addTodo('written while offline'));
      expect(error.code).toBe('ERR_OFFLINE');
      expect(error.response).toBeUndefined();
      expect(isOffline(error)).toBe(true);
      expect(isTimeout(error)).toBe(false);
      expect(isSessionEnded(error)).toBe(false);
      expect(describeError(error, FALLBACK)).toBe(OFFLINE_MESSAGE);
      expect(OFFLINE_MESSAGE).toBe("You're offline. Check your connection and try again.");
      // Reads are refused too (nothing is queued either way).
      expect((await failureOf(fetchTodos())).code).toBe('ERR_OFFLINE');
      expect(open).not.toHaveBeenCalled();
    } finally {
      open.mockRestore();
      goOnline();
      goOnline = undefined;
    }

    // Back online: the server never saw the offline write, and nothing replays it.
    expect(await fetchCurrentUser()).toMatchObject({ _id: user._id });
    expect(await fetchTodos()).toEqual([]);
  });

  it('falls back for errors that are not HTTP failures', () => {
    const plain = new Error('boom');
    expect(isOffline(plain)).toBe(false);
    expect(isTimeout(plain)).toBe(false);
    expect(isSessionEnded(plain)).toBe(false);
    expect(isValidationError(plain)).toBe(false);
    expect(statusOf(plain)).toBeUndefined();
    expect(describeError(plain, FALLBACK)).toBe(FALLBACK);
    expect(describeError(undefined, FALLBACK)).toBe(FALLBACK);
  });
});

describe('validationIssues', () => {
  it('lists the fields a refused signup concerns, with their messages, and nothing for other errors', async () => {
    await fetchCurrentUser(); // the first call issues the XSRF cookie the signup must echo
    const refused = await failureOf(signup({ ...newAccount(), fullName: '   ', password: 'short' }));
    expect(statusOf(refused)).toBe(400);
    expect(validationIssues(refused)).toEqual(
      expect.arrayContaining([
        { path: ['fullName'], message: 'Full name is required' },
        { path: ['password'], message: 'Password must be at least 8 characters' },
      ]),
    );
    expect(validationIssues(await failureOf(login({ email: newAccount().email, password: 'not the password' })))).toEqual([]);
    expect(validationIssues(new Error('boom'))).toEqual([]);
  });
});

describe('a 429 without a message (Retry-After)', () => {
  /** A 429 as axios rejects it, with the headers given. */
  function tooMany(headers: Record<string, string>, data: unknown = {}) {
    const error = new AxiosError('Request failed with status code 429', 'ERR_BAD_REQUEST');
    error.response = { status: 429, statusText: 'Too Many Requests', data, headers, config: { headers: new axios.AxiosHeaders() } };
    return error;
  }

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterSeconds(tooMany({ 'retry-after': '240' }))).toBe(240);
    expect(retryAfterSeconds(tooMany({ 'retry-after': new Date(Date.now() + 90_000).toUTCString() }))).toBeGreaterThanOrEqual(89);
    expect(retryAfterSeconds(tooMany({}))).toBeUndefined();
    expect(retryAfterSeconds(tooMany({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterSeconds(new Error('boom'))).toBeUndefined();
  });

  it('says the wait in the gateway\'s words: minutes rounded up, seconds under a minute', () => {
    expect(tooManyAttemptsMessage(240)).toBe('Too many attempts. Try again in 4 minutes.');
    expect(tooManyAttemptsMessage(181)).toBe('Too many attempts. Try again in 4 minutes.');
    expect(tooManyAttemptsMessage(60)).toBe('Too many attempts. Try again in 1 minute.');
    expect(tooManyAttemptsMessage(59)).toBe('Too many attempts. Try again in 59 seconds.');
    expect(tooManyAttemptsMessage(1)).toBe('Too many attempts. Try again in 1 second.');
    expect(tooManyAttemptsMessage(0.2)).toBe('Too many attempts. Try again in 1 second.');
  });

  it('describeError prefers the server\'s message, else builds it from Retry-After, else the fallback', () => {
    expect(describeError(tooMany({ 'retry-after': '240' }, { message: 'Too many attempts. Try again in 4 minutes.' }), FALLBACK)).toBe(
      'Too many attempts. Try again in 4 minutes.',
    );
    expect(describeError(tooMany({ 'retry-after': '30' }), FALLBACK)).toBe('Too many attempts. Try again in 30 seconds.');
    expect(describeError(tooMany({}), FALLBACK)).toBe(FALLBACK);
  });
});
