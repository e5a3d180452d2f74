import { ErrorCode } from '@tm/contracts';
import {
  addTodo,
  changePassword,
  deleteAccount,
  fetchCurrentUser,
  fetchTodos,
  fieldIssues,
  isSessionEnded,
  isWrongPassword,
  login,
  logout,
  logoutAll,
  signup,
  statusOf,
} from './index.js';

/** The account calls against the real gateway (jsdom's origin): their answers as the Account screen reads them. */

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'violet tractor sings at midnight';

async function signedInAccount() {
  const email = `account-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await fetchCurrentUser(); // the XSRF cookie
  const { user } = await signup({ fullName: 'Account Client', email, password: PASSWORD });
  return { ...user, password: PASSWORD };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('the account calls', () => {
  beforeEach(() => jest.spyOn(console, 'info').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('changePassword: a wrong current password is a 403 on currentPassword (the session is fine); then it changes and keeps this session', async () => {
    const account = await signedInAccount();
    const wrong = await failureOf(changePassword({ currentPassword: 'not the password', newPassword: NEW_PASSWORD }));
    expect(statusOf(wrong)).toBe(403);
    expect(isWrongPassword(wrong)).toBe(true);
    expect(isSessionEnded(wrong)).toBe(false);
    expect(fieldIssues(wrong)).toEqual([{ path: ['currentPassword'], message: expect.any(String) }]);

    const weak = await failureOf(changePassword({ currentPassword: account.password, newPassword: 'password123' }));
    expect(statusOf(weak)).toBe(400);
    expect(fieldIssues(weak)).toEqual([{ path: ['newPassword'], message: expect.stringMatching(/too common/) }]);

    const xsrfBefore = document.cookie;
    expect(await changePassword({ currentPassword: account.password, newPassword: NEW_PASSWORD })).toEqual({ message: 'Password changed successfully' });
    expect(document.cookie).not.toBe(xsrfBefore); // rotated: a new XSRF cookie, which the next write carries
    expect(await fetchCurrentUser()).toMatchObject({ _id: account._id });
    expect((await addTodo('after the change')).todo.title).toBe('after the change');
    await logout();
    expect(statusOf(await failureOf(login({ email: account.email, password: PASSWORD })))).toBe(401);
    expect((await login({ email: account.email, password: NEW_PASSWORD })).user._id).toBe(account._id);
  });

  it('logoutAll signs this session out too', async () => {
    const account = await signedInAccount();
    expect(await logoutAll()).toEqual({ message: 'Signed out of all devices' });
    expect(await fetchCurrentUser()).toBeNull();
    expect((await login({ email: account.email, password: PASSWORD })).user._id).toBe(account._id);
  });

  it('deleteAccount: a wrong password is a 403 on password; the right one deletes the account and its tasks, and signs out', async () => {
    const account = await signedInAccount();
    await addTodo('goes with the account');
    const wrong = await failureOf(deleteAccount({ password: 'not the password' }));
    expect(statusOf(wrong)).toBe(403);
    expect(wrong).toMatchObject({ response: { data: { code: ErrorCode.wrongPassword } } });
    expect(fieldIssues(wrong)).toEqual([{ path: ['password'], message: expect.any(String) }]);
    expect(await fetchTodos()).toHaveLength(1);

    expect(await deleteAccount({ password: PASSWORD })).toEqual({ message: 'Account deleted successfully' });
    expect(await fetchCurrentUser()).toBeNull();
    expect(statusOf(await failureOf(login({ email: account.email, password: PASSWORD })))).toBe(401);
  });
});
