import { ErrorCode } from '@tm/contracts';
import {
  addTodo,
  changePassword,
  deleteAccount,
  fetchCurrentUser,
  fetchTodos,
  fieldIssues,
  forgotPassword,
  isEmailTaken,
  isPasswordChangedElsewhere,
  isResetLinkInvalid,
  isSessionEnded,
  isWrongPassword,
  login,
  logout,
  logoutAll,
  resetPassword,
  signup,
  statusOf,
  updateProfile,
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

  it('updateProfile answers the user as it now is; a taken email is a 409 on email, a wrong password a 403', async () => {
    const taken = await signedInAccount();
    await logout();
    const account = await signedInAccount();
    expect(await updateProfile({ fullName: 'Renamed Client' })).toEqual({ message: 'Your details were saved', user: { ...account, password: undefined, fullName: 'Renamed Client' } });
    const wrong = await failureOf(updateProfile({ email: `new-${account.email}`, currentPassword: 'not the password' }));
    expect(isWrongPassword(wrong)).toBe(true);
    const conflict = await failureOf(updateProfile({ email: taken.email, currentPassword: PASSWORD }));
    expect(isEmailTaken(conflict)).toBe(true);
    expect(fieldIssues(conflict)).toEqual([{ path: ['email'], message: 'An account with this email already exists' }]);
    expect(isPasswordChangedElsewhere(conflict)).toBe(false);
  });

  it('forgotPassword answers the same for any address; resetPassword refuses a link that does not work (USER.RESET_LINK_INVALID)', async () => {
    const account = await signedInAccount();
    await logout();
    const known = await forgotPassword({ email: account.email });
    expect(await forgotPassword({ email: `nobody-${account.email}` })).toEqual(known);
    const refused = await failureOf(resetPassword({ token: 'A'.repeat(43), newPassword: NEW_PASSWORD }));
    expect(statusOf(refused)).toBe(400);
    expect(isResetLinkInvalid(refused)).toBe(true);
    expect(isResetLinkInvalid(await failureOf(updateProfile({ fullName: 'x' })))).toBe(false);
  });
});
