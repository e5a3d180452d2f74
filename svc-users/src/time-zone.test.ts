// The account's time zone (docs/PRODUCT.md §10.10, §10.14) over real HTTP against svc-users on a real SQLite
// file: given at sign-up or on the profile call, returned by /user/me when set and absent when not, an unknown
// one refused with a 400 on its field that changes nothing.
import { ErrorCode, UserResponse } from '@tm/contracts';
import { newUser, signedCall } from '@tm/test-support';
import { UNKNOWN_TIME_ZONE_MESSAGE } from './account.domain.js';
import { startTestService, type TestService } from './users.test-helpers.js';

const PASSWORD = 'analytical-engine';
const signup = (url: string, body: unknown) => signedCall<UserResponse>(url, { method: 'POST', path: '/user/signup', body });
const me = (url: string, userId: string) => signedCall<UserResponse>(url, { path: '/user/me', userId });
const login = (url: string, email: string) => signedCall<UserResponse>(url, { method: 'POST', path: '/user/login', body: { email, password: PASSWORD } });
const updateProfile = (url: string, userId: string, body: unknown) => signedCall<UserResponse>(url, { method: 'PUT', path: '/user/profile', userId, body });

const UNKNOWN_ZONE = {
  message: UNKNOWN_TIME_ZONE_MESSAGE,
  code: ErrorCode.validation,
  issues: [{ path: ['timeZone'], message: UNKNOWN_TIME_ZONE_MESSAGE }],
};

/** A new person's sign-up details, with `extra` (a time zone) when given. */
function person(extra: Record<string, unknown> = {}) {
  const { fullName, email } = newUser('Ada Lovelace');
  return { fullName, email, password: PASSWORD, ...extra };
}

describe('the time zone of an account (svc-users)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.stop());

  it('is kept as given at sign-up and returned by sign-up, sign-in and /user/me', async () => {
    const ada = person({ timeZone: 'Asia/Calcutta' });
    const created = await signup(service.url, ada);
    expect(created.status).toBe(201);
    const user = UserResponse.strict().parse(created.body).user;
    expect(user).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), fullName: ada.fullName, email: ada.email, timeZone: 'Asia/Calcutta' });
    expect((await login(service.url, ada.email)).body.user).toEqual(user);
    expect(await me(service.url, user._id)).toMatchObject({ status: 200, body: { user } });
  });

  it('is absent from every answer when none was given at sign-up, as for any client that knows nothing of it', async () => {
    const ada = person();
    const created = await signup(service.url, ada);
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.user).sort()).toEqual(['_id', 'email', 'fullName']);
    const fetched = await me(service.url, created.body.user._id);
    expect(fetched.status).toBe(200);
    expect(fetched.body.user).toEqual(created.body.user);
    expect(fetched.body.user).not.toHaveProperty('timeZone');
  });

  it('is set alone by PUT /user/profile, without a password, and /user/me returns it; the same zone again changes nothing', async () => {
    const ada = person();
    const { _id: id } = (await signup(service.url, ada)).body.user;
    const saved = await updateProfile(service.url, id, { timeZone: 'Europe/Paris' });
    expect({ status: saved.status, body: saved.body }).toEqual({
      status: 200,
      body: { message: 'Your details were saved', user: { _id: id, fullName: ada.fullName, email: ada.email, timeZone: 'Europe/Paris' } },
    });
    expect((await me(service.url, id)).body.user.timeZone).toBe('Europe/Paris');

    const again = await updateProfile(service.url, id, { timeZone: 'Europe/Paris' });
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: saved.body });

    // UTC and an alias, each kept exactly as given.
    expect((await updateProfile(service.url, id, { timeZone: 'UTC' })).body.user.timeZone).toBe('UTC');
    expect((await updateProfile(service.url, id, { timeZone: 'US/Eastern' })).body.user.timeZone).toBe('US/Eastern');
    expect((await me(service.url, id)).body.user.timeZone).toBe('US/Eastern');
  });

  it('is changed with the name in one call, and kept by a later change of the name alone', async () => {
    const ada = person({ timeZone: 'UTC' });
    const { _id: id } = (await signup(service.url, ada)).body.user;
    const both = await updateProfile(service.url, id, { fullName: 'Ada King', timeZone: 'Pacific/Auckland' });
    expect(both.body.user).toEqual({ _id: id, fullName: 'Ada King', email: ada.email, timeZone: 'Pacific/Auckland' });
    const renamed = await updateProfile(service.url, id, { fullName: 'Ada Lovelace' });
    expect(renamed.body.user).toEqual({ _id: id, fullName: 'Ada Lovelace', email: ada.email, timeZone: 'Pacific/Auckland' });
  });

  it('refuses an unknown zone with a 400 on timeZone and changes nothing, not even the name sent with it', async () => {
    const ada = person({ timeZone: 'Europe/Paris' });
    const { _id: id } = (await signup(service.url, ada)).body.user;
    for (const timeZone of ['Mars/Olympus_Mons', 'europe/paris', '+01:00', '']) {
      const refused = await updateProfile(service.url, id, { fullName: 'Ada King', timeZone });
      expect([timeZone, refused.status, refused.body]).toEqual([timeZone, 400, UNKNOWN_ZONE]);
    }
    const wrongType = await updateProfile(service.url, id, { timeZone: 42 });
    expect(wrongType).toMatchObject({ status: 400, body: { code: ErrorCode.validation, issues: [{ path: ['timeZone'] }] } });
    expect((await me(service.url, id)).body.user).toEqual({ _id: id, fullName: ada.fullName, email: ada.email, timeZone: 'Europe/Paris' });
  });

  it('refuses a sign-up with an unknown zone with a 400 on timeZone, and creates no account', async () => {
    const ada = person();
    const refused = await signup(service.url, { ...ada, timeZone: 'Europe/Atlantis' });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: UNKNOWN_ZONE });
    expect(await service.repository.findByEmail(ada.email)).toBeNull();
    // The same person signs up once the zone is left out.
    expect((await signup(service.url, ada)).status).toBe(201);
  });
});
