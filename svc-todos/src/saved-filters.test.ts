import { ObjectId } from 'bson';
import { ErrorBody, ErrorCode, LIMITS, SAVED_FILTER_NAME_EMPTY_MESSAGE, SAVED_FILTERS_FULL_MESSAGE, SavedFilterResponse, SavedFiltersResponse } from '@tm/contracts';
import { signedCall, tempDir, type CallResult, type SignedCall } from '@tm/test-support';
import { startTestService, type TestService } from './todos.test-helpers.js';

// Saved filters (docs/PRODUCT.md §10.20 "Saved filters") over real HTTP against the real service and its SQLite
// file: saved by name (a known name, case aside, takes the new address), listed by name, deleted; each person
// sees only their own; bad names and addresses refused with the field named and nothing changed; the limit;
// kept across a restart; gone with the account.

const ALICE = new ObjectId().toHexString();
const BOB = new ObjectId().toHexString();
const LIST = new ObjectId().toHexString();

let dir: ReturnType<typeof tempDir>;
let service: TestService;

beforeEach(async () => {
  dir = tempDir('svc-todos-saved-filters-');
  service = await startTestService({ dataDir: dir.dir });
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

const call = (request: SignedCall, userId = ALICE): Promise<CallResult> => signedCall(service.url, { userId, ...request });
const saveCall = (body: Record<string, unknown>, userId = ALICE) => call({ method: 'PUT', path: '/todo/saved-filters', body }, userId);
const filters = async (userId = ALICE) => {
  const answer = await call({ path: '/todo/saved-filters' }, userId);
  expect(answer.status).toBe(200);
  return SavedFiltersResponse.parse(answer.body).filters;
};
async function save(name: string, address: string, status = 201) {
  const answer = await saveCall({ name, address });
  expect([answer.status, answer.body]).toEqual([status, expect.anything()]);
  return SavedFilterResponse.parse(answer.body);
}

describe('saved filters', () => {
  it('saves a filter by name, lists them by name, and a known name (case aside) takes the new address', async () => {
    expect(await filters()).toEqual([]);
    const errands = await save('  Errands  ', '/?label=errand');
    expect(errands.message).toBe('Filter saved');
    expect(errands.filter).toMatchObject({ name: 'Errands', address: '/?label=errand' });
    await save('urgent work', `/lists/${LIST}?filter=active&priority=1&due=week`);
    await save('Bills', '/lists/inbox?q=pay+rent');
    expect((await filters()).map((filter) => filter.name)).toEqual(['Bills', 'Errands', 'urgent work']);

    const changed = await save('ERRANDS', '/?label=errand&due=today', 200);
    expect(changed.message).toBe('Filter updated');
    expect(changed.filter).toMatchObject({ _id: errands.filter._id, name: 'ERRANDS', address: '/?label=errand&due=today', createdAt: errands.filter.createdAt });
    const all = await filters();
    expect(all).toHaveLength(3);
    expect(all.find((filter) => filter._id === errands.filter._id)).toEqual(changed.filter);
    // The same save again changes nothing but the time it was saved.
    expect((await save('ERRANDS', '/?label=errand&due=today', 200)).filter).toMatchObject({ _id: errands.filter._id, address: '/?label=errand&due=today' });
    expect(await filters()).toHaveLength(3);
  });

  it('refuses a bad name or address with the field named, and changes nothing', async () => {
    await save('Errands', '/?label=errand');
    const before = await filters();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '   ', address: '/?label=errand' }, 'name'],
      [{ name: 'x'.repeat(LIMITS.savedFilterName.max + 1), address: '/?label=errand' }, 'name'],
      [{ name: 'All', address: '/' }, 'address'],
      [{ name: 'Odd', address: '/?label=errand&sort=asc' }, 'address'],
      [{ name: 'Odd', address: '/?priority=5' }, 'address'],
      [{ name: 'Odd', address: '/?label=two words' }, 'address'],
      [{ name: 'Odd', address: '/?due=today&label=errand' }, 'address'],
      [{ name: 'Odd', address: '/lists/not-a-list?filter=active' }, 'address'],
      [{ name: 'Odd', address: 'https://elsewhere.example/?label=errand' }, 'address'],
      [{ name: 'Odd' }, 'address'],
      [{ name: 'Odd', address: '/?label=errand', extra: true }, ''],
    ];
    for (const [body, field] of cases) {
      const answer = await saveCall(body);
      expect([answer.status, body]).toEqual([400, body]);
      const error = ErrorBody.parse(answer.body);
      expect(error.code).toBe(ErrorCode.validation);
      if (field !== '') expect(error.issues?.map((issue) => issue.path.join('.'))).toContain(field);
    }
    expect(ErrorBody.parse((await saveCall({ name: '', address: '/?label=errand' })).body).issues?.[0]?.message).toBe(SAVED_FILTER_NAME_EMPTY_MESSAGE);
    expect(await filters()).toEqual(before);
  });

  it('keeps each person to their own filters: another person can neither see nor delete them', async () => {
    const { filter } = await save('Errands', '/?label=errand');
    expect(await filters(BOB)).toEqual([]);
    const theirs = await call({ method: 'DELETE', path: `/todo/saved-filters/${filter._id}` }, BOB);
    expect([theirs.status, ErrorBody.parse(theirs.body).code]).toEqual([404, ErrorCode.savedFilterNotFound]);
    // The same name is free for another person.
    expect((await saveCall({ name: 'errands', address: '/?priority=2' }, BOB)).status).toBe(201);
    expect(await filters()).toEqual([filter]);
  });

  it('deletes a filter once; a second delete or a malformed id is refused', async () => {
    const { filter } = await save('Errands', '/?label=errand');
    const deleted = await call({ method: 'DELETE', path: `/todo/saved-filters/${filter._id}` });
    expect([deleted.status, SavedFilterResponse.parse(deleted.body)]).toEqual([200, { message: 'Filter deleted', filter }]);
    expect(await filters()).toEqual([]);
    const again = await call({ method: 'DELETE', path: `/todo/saved-filters/${filter._id}` });
    expect([again.status, ErrorBody.parse(again.body).message]).toEqual([404, 'Saved filter not found']);
    const malformed = await call({ method: 'DELETE', path: '/todo/saved-filters/nope' });
    expect([malformed.status, ErrorBody.parse(malformed.body).issues?.[0]?.path.join('.')]).toEqual([400, 'filterId']);
  });

  it(`keeps at most ${LIMITS.savedFilters} per person, and still updates a known name when full`, async () => {
    for (let index = 0; index < LIMITS.savedFilters; index += 1) await save(`Filter ${index}`, `/?label=l${index}`);
    const full = await saveCall({ name: 'One more', address: '/?priority=1' });
    expect([full.status, ErrorBody.parse(full.body)]).toEqual([409, expect.objectContaining({ message: SAVED_FILTERS_FULL_MESSAGE, code: ErrorCode.savedFiltersFull })]);
    expect(await filters()).toHaveLength(LIMITS.savedFilters);
    await save('filter 0', '/?priority=1', 200);
  });

  it('keeps the filters across a restart of the service, and deletes them with the account', async () => {
    const { filter } = await save('Errands', '/?label=errand');
    await service.stop();
    service = await startTestService({ dataDir: dir.dir });
    expect(await filters()).toEqual([filter]);
    const purge = await call({ method: 'DELETE', path: '/internal/todos' });
    expect(purge.status).toBe(200);
    expect(await filters()).toEqual([]);
  });
});
