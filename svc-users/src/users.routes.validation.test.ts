import { ErrorBody, ErrorCode, INTERNAL_API, LIMITS } from '@tm/contracts';
import { signedCall, type SignedCall } from '@tm/test-support';
import { UNKNOWN_TIME_ZONE_MESSAGE } from './account.domain.js';
import { startTestService, type TestService } from './users.test-helpers.js';

/** Every bad request below uses this email where the email itself is not what is wrong. */
const EMAIL = 'victim@example.com';
const PASSWORD = 'long-enough-password';
const JSON_TYPE = { 'content-type': 'application/json' };

interface BadInput {
  call: Omit<SignedCall, 'method' | 'path'>;
  status: number;
  code: string;
  /** Paths of the zod issues expected, in order (validation errors only). */
  issues?: (string | number)[][];
  /** The message for people, when the case pins it: the first issue's, in words, without a field prefix. */
  message?: string;
}

const tooLargeBody = { fullName: 'x'.repeat(LIMITS.bodyBytes), email: EMAIL, password: PASSWORD };

/** Bad requests both routes must refuse the same way before any work is done. */
const bodyLevelCases: [string, BadInput][] = [
  ['malformed JSON', { call: { rawBody: '{"email": "victim@example.com", ', headers: JSON_TYPE }, status: 400, code: ErrorCode.malformedJson }],
  ['a JSON string instead of an object', { call: { rawBody: '"victim@example.com"', headers: JSON_TYPE }, status: 400, code: ErrorCode.malformedJson }],
  ['a body over 64 KiB', { call: { body: tooLargeBody }, status: 413, code: ErrorCode.bodyTooLarge }],
  ['text/plain', { call: { rawBody: `email=${EMAIL}`, headers: { 'content-type': 'text/plain' } }, status: 415, code: ErrorCode.unsupportedMediaType }],
  ['an array', { call: { body: [EMAIL, PASSWORD] }, status: 400, code: ErrorCode.validation, issues: [[]], message: 'The request body must be a JSON object' }],
];

const signupCases: [string, BadInput][] = [
  ...bodyLevelCases,
  ['wrong types', { call: { body: { fullName: 42, email: true, password: null } }, status: 400, code: ErrorCode.validation, issues: [['fullName'], ['email'], ['password']], message: 'Full name must be text' }],
  ['missing fields', { call: { body: {} }, status: 400, code: ErrorCode.validation, issues: [['fullName'], ['email'], ['password']], message: 'Full name is required' }],
  ['no body at all', { call: {}, status: 400, code: ErrorCode.validation, issues: [['fullName'], ['email'], ['password']], message: 'Full name is required' }],
  ['a blank full name', { call: { body: { fullName: '   ', email: EMAIL, password: PASSWORD } }, status: 400, code: ErrorCode.validation, issues: [['fullName']], message: 'Full name is required' }],
  ['a full name over the limit', { call: { body: { fullName: 'x'.repeat(LIMITS.fullName.max + 1), email: EMAIL, password: PASSWORD } }, status: 400, code: ErrorCode.validation, issues: [['fullName']], message: 'Full name must be at most 100 characters' }],
  ['an invalid email', { call: { body: { fullName: 'Ada', email: 'victim-at-example.com', password: PASSWORD } }, status: 400, code: ErrorCode.validation, issues: [['email']], message: 'Enter a valid email address' }],
  ['an email over the limit', { call: { body: { fullName: 'Ada', email: `${'v'.repeat(LIMITS.email.max)}@example.com`, password: PASSWORD } }, status: 400, code: ErrorCode.validation, issues: [['email']], message: 'Email must be at most 254 characters' }],
  ['a password under the limit', { call: { body: { fullName: 'Ada', email: EMAIL, password: 'x'.repeat(LIMITS.password.min - 1) } }, status: 400, code: ErrorCode.validation, issues: [['password']], message: 'Password must be at least 8 characters' }],
  ['a password over the limit', { call: { body: { fullName: 'Ada', email: EMAIL, password: 'x'.repeat(LIMITS.password.max + 1) } }, status: 400, code: ErrorCode.validation, issues: [['password']], message: 'Password must be at most 128 characters' }],
  ['a time zone of the wrong type', { call: { body: { fullName: 'Ada', email: EMAIL, password: PASSWORD, timeZone: 1 } }, status: 400, code: ErrorCode.validation, issues: [['timeZone']], message: 'Time zone must be text' }],
  ['a time zone over the limit', { call: { body: { fullName: 'Ada', email: EMAIL, password: PASSWORD, timeZone: `Europe/${'x'.repeat(LIMITS.timeZone.max)}` } }, status: 400, code: ErrorCode.validation, issues: [['timeZone']], message: 'Time zone must be at most 64 characters' }],
  ['an unknown time zone', { call: { body: { fullName: 'Ada', email: EMAIL, password: PASSWORD, timeZone: 'Mars/Olympus_Mons' } }, status: 400, code: ErrorCode.validation, issues: [['timeZone']], message: UNKNOWN_TIME_ZONE_MESSAGE }],
  ['a time zone in another case', { call: { body: { fullName: 'Ada', email: EMAIL, password: PASSWORD, timeZone: 'europe/paris' } }, status: 400, code: ErrorCode.validation, issues: [['timeZone']], message: UNKNOWN_TIME_ZONE_MESSAGE }],
];

const loginCases: [string, BadInput][] = [
  ...bodyLevelCases,
  ['wrong types', { call: { body: { email: 7, password: false } }, status: 400, code: ErrorCode.validation, issues: [['email'], ['password']], message: 'Email must be text' }],
  ['missing fields', { call: { body: {} }, status: 400, code: ErrorCode.validation, issues: [['email'], ['password']], message: 'Email is required' }],
  ['no body at all', { call: {}, status: 400, code: ErrorCode.validation, issues: [['email'], ['password']], message: 'Email is required' }],
  ['an empty password', { call: { body: { email: EMAIL, password: '' } }, status: 400, code: ErrorCode.validation, issues: [['password']], message: 'Password is required' }],
  ['a password over the limit', { call: { body: { email: EMAIL, password: 'x'.repeat(LIMITS.password.max + 1) } }, status: 400, code: ErrorCode.validation, issues: [['password']], message: 'Invalid email or password' }],
  ['an invalid email', { call: { body: { email: 'victim', password: PASSWORD } }, status: 400, code: ErrorCode.validation, issues: [['email']], message: 'Enter a valid email address' }],
];

const NEW_PASSWORD = 'difference-engine-1837';

const changePasswordCases: [string, BadInput][] = [
  ...bodyLevelCases,
  ['wrong types', { call: { body: { currentPassword: 1, newPassword: false } }, status: 400, code: ErrorCode.validation, issues: [['currentPassword'], ['newPassword']], message: 'Current password must be text' }],
  ['missing fields', { call: { body: {} }, status: 400, code: ErrorCode.validation, issues: [['currentPassword'], ['newPassword']], message: 'Current password is required' }],
  ['no body at all', { call: {}, status: 400, code: ErrorCode.validation, issues: [['currentPassword'], ['newPassword']], message: 'Current password is required' }],
  ['an empty current password', { call: { body: { currentPassword: '', newPassword: NEW_PASSWORD } }, status: 400, code: ErrorCode.validation, issues: [['currentPassword']], message: 'Enter your current password' }],
  ['a current password over the limit', { call: { body: { currentPassword: 'x'.repeat(LIMITS.password.max + 1), newPassword: NEW_PASSWORD } }, status: 400, code: ErrorCode.validation, issues: [['currentPassword']], message: 'Password must be at most 128 characters' }],
  ['a new password under the limit', { call: { body: { currentPassword: PASSWORD, newPassword: 'x'.repeat(LIMITS.password.min - 1) } }, status: 400, code: ErrorCode.validation, issues: [['newPassword']], message: 'Password must be at least 8 characters' }],
  ['a new password over the limit', { call: { body: { currentPassword: PASSWORD, newPassword: 'x'.repeat(LIMITS.password.max + 1) } }, status: 400, code: ErrorCode.validation, issues: [['newPassword']], message: 'Password must be at most 128 characters' }],
];

const verifyPasswordCases: [string, BadInput][] = [
  ...bodyLevelCases,
  ['a wrong type', { call: { body: { password: 12345678 } }, status: 400, code: ErrorCode.validation, issues: [['password']], message: 'Password must be text' }],
  ['no body at all', { call: {}, status: 400, code: ErrorCode.validation, issues: [['password']], message: 'Password is required' }],
  ['an empty password', { call: { body: { password: '' } }, status: 400, code: ErrorCode.validation, issues: [['password']], message: 'Enter your current password' }],
];

function expectErrorBody(body: unknown, expected: BadInput): void {
  // Exactly {message, code, issues?}: nothing else (no stack, no echo of the input) reaches the client.
  const parsed = ErrorBody.strict().parse(body);
  expect(parsed.message.length).toBeGreaterThan(0);
  // Words for a person: never the old "<path>: <message>" form (the issues carry the paths).
  expect(parsed.message).not.toMatch(/^[\w.]+: /);
  if (expected.message !== undefined) expect(parsed.message).toBe(expected.message);
  expect(parsed.code).toBe(expected.code);
  expect(parsed.issues?.map((issue) => issue.path)).toEqual(expected.issues);
}

describe('svc-users bad input', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.stop());

  describe('POST /user/signup', () => {
    it.each(signupCases)('refuses %s and creates no account', async (_case, input) => {
      const response = await signedCall(service.url, { method: 'POST', path: '/user/signup', ...input.call });
      expect(response.status).toBe(input.status);
      expectErrorBody(response.body, input);
      expect(await service.repository.findByEmail(EMAIL)).toBeNull();
    });
  });

  describe('with an existing account', () => {
    let userId: string;
    let passwordHash: string | undefined;
    beforeAll(async () => {
      // An existing account, so a refusal below cannot be the ordinary 401 for an unknown email or user.
      const body = { fullName: 'Ada', email: EMAIL, password: PASSWORD };
      const created = await signedCall<{ user: { _id: string } }>(service.url, { method: 'POST', path: '/user/signup', body });
      expect(created.status).toBe(201);
      userId = created.body.user._id;
      passwordHash = (await service.repository.findByEmail(EMAIL))?.passwordHash;
    });

    it.each(changePasswordCases)('PUT /user/password refuses %s and changes nothing', async (_case, input) => {
      const response = await signedCall(service.url, { method: 'PUT', path: '/user/password', userId, ...input.call });
      expect(response.status).toBe(input.status);
      expectErrorBody(response.body, input);
      expect((await service.repository.findByEmail(EMAIL))?.passwordHash).toBe(passwordHash);
    });

    it.each(verifyPasswordCases)('POST /internal/users/verify-password refuses %s', async (_case, input) => {
      const { method, path } = INTERNAL_API.verifyPassword;
      const response = await signedCall(service.url, { method, path, userId, ...input.call });
      expect(response.status).toBe(input.status);
      expectErrorBody(response.body, input);
    });

    it.each(loginCases)('POST /user/login refuses %s', async (_case, input) => {
      const response = await signedCall(service.url, { method: 'POST', path: '/user/login', ...input.call });
      expect(response.status).toBe(input.status);
      expectErrorBody(response.body, input);
    });
  });

  describe('GET /user/me', () => {
    it('takes the user only from the signed identity, never from the query', async () => {
      const response = await signedCall(service.url, { path: '/user/me?userId=0123456789abcdef01234567' });
      expect(response.status).toBe(401);
      expectErrorBody(response.body, { call: {}, status: 401, code: ErrorCode.unauthenticated });
    });
  });
});
