import { AxiosError } from 'axios';
import { fetchCurrentUser, http, logout, signup, statusOf } from './index.js';

/**
 * fetchCurrentUser against the real gateway: only a 401 means "signed out" (null); any other failure is
 * thrown so the app can say it cannot reach the server instead of sending a signed-in person to /login.
 */
describe('fetchCurrentUser', () => {
  const { baseURL, timeout } = http.defaults;
  let info: jest.SpyInstance;
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    info = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    // jsdom reports a refused connection on the console; the network test asserts it instead.
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    http.defaults.baseURL = baseURL;
    http.defaults.timeout = timeout;
    info.mockRestore();
    consoleError.mockRestore();
  });

  it('answers null for the 401 of a signed-out visitor, and logs nothing: it is how a visitor is told apart', async () => {
    expect(await fetchCurrentUser()).toBeNull();
    expect(info).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('answers the user while signed in, and null again after a logout', async () => {
    const email = `me-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await fetchCurrentUser();
    const { user } = await signup({ fullName: 'Me Test', email, password: 'correct horse battery' });
    expect(await fetchCurrentUser()).toEqual(user);
    await logout();
    expect(await fetchCurrentUser()).toBeNull();
  });

  it('throws a failure that is not a 401 (a real 404 of the gateway), keeping its status', async () => {
    http.defaults.baseURL = '/api/nonexistent-prefix';
    const error: unknown = await fetchCurrentUser().then(
      () => 'resolved',
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(AxiosError);
    expect(statusOf(error)).toBe(404);
    // An answer, if not the expected one: one quiet line, no stack trace.
    expect(info.mock.calls).toEqual([['Could not check the current user: 404']]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('throws a network failure instead of treating it as signed out', async () => {
    // Nothing listens on port 1. (timeout 0: jsdom leaves the XHR timeout timer running after a network
    // error, which would hold jest for 10 s; the timeout plays no part in this check.)
    http.defaults.baseURL = 'http://127.0.0.1:1/api';
    http.defaults.timeout = 0;
    const error: unknown = await fetchCurrentUser().then(
      () => 'resolved',
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(AxiosError);
    expect((error as AxiosError).code).toBe(AxiosError.ERR_NETWORK);
    expect(statusOf(error)).toBeUndefined();
    // A real failure: logged as an error, with its detail (jsdom reports the refused connection too).
    expect(consoleError).toHaveBeenCalledWith('Could not check the current user', error);
    expect(consoleError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('ECONNREFUSED') }));
    expect(info).not.toHaveBeenCalled();
  });
});
