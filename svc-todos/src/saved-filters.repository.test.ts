// The saved filters' stores, one contract for both (docs/PRODUCT.md §10.20 "Saved filters"; docs/ARCHITECTURE.md
// "Testing"): saved by name (case aside) once per person, listed by name, the limit, deleted only by their
// owner, and gone with the account.
import { MongoClient, ObjectId } from 'mongodb';
import { LIMITS } from '@tm/contracts';
import { tempDir } from '@tm/test-support';
import { MongoSavedFiltersStore } from './mongo-saved-filters.store.js';
import type { SavedFiltersRepository } from './saved-filters.repository.js';
import { SqliteSavedFiltersStore } from './sqlite-saved-filters.store.js';

interface Harness {
  /** A store of its own for one test, and how to remove it. */
  open: () => Promise<{ store: SavedFiltersRepository; remove: () => Promise<void> }>;
}

const ALICE = new ObjectId().toHexString();
const BOB = new ObjectId().toHexString();

function describeSavedFiltersContract({ open }: Harness): void {
  let store: SavedFiltersRepository;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ store, remove } = await open());
  });
  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('saves by name, once per name case aside, and lists by name', async () => {
    const errands = await store.save(ALICE, { name: 'errands', address: '/?label=errand' });
    expect(errands).toMatchObject({ kind: 'created', filter: { name: 'errands', address: '/?label=errand' } });
    await store.save(ALICE, { name: 'Bills', address: '/?q=bill' });
    const updated = await store.save(ALICE, { name: 'Errands', address: '/?label=errand&due=today' });
    expect(updated.kind).toBe('updated');
    if (errands.kind === 'full' || updated.kind === 'full') throw new Error('not full');
    expect(updated.filter).toMatchObject({ _id: errands.filter._id, name: 'Errands', address: '/?label=errand&due=today', createdAt: errands.filter.createdAt });
    expect((await store.list(ALICE)).map((filter) => filter.name)).toEqual(['Bills', 'Errands']);
    expect(await store.list(BOB)).toEqual([]);
  });

  it(`keeps at most ${LIMITS.savedFilters} per person`, async () => {
    for (let index = 0; index < LIMITS.savedFilters; index += 1) await store.save(ALICE, { name: `F${index}`, address: `/?label=l${index}` });
    expect(await store.save(ALICE, { name: 'One more', address: '/?priority=1' })).toEqual({ kind: 'full' });
    expect((await store.save(ALICE, { name: 'f1', address: '/?priority=1' })).kind).toBe('updated');
    expect((await store.save(BOB, { name: 'One more', address: '/?priority=1' })).kind).toBe('created');
    expect(await store.list(ALICE)).toHaveLength(LIMITS.savedFilters);
  });

  it("deletes a filter of its owner only, and an account's purge takes all of them", async () => {
    const saved = await store.save(ALICE, { name: 'Errands', address: '/?label=errand' });
    if (saved.kind === 'full') throw new Error('not full');
    expect(await store.remove(BOB, saved.filter._id)).toBeNull();
    expect(await store.remove(ALICE, saved.filter._id)).toEqual(saved.filter);
    expect(await store.remove(ALICE, saved.filter._id)).toBeNull();
    await store.save(ALICE, { name: 'A', address: '/?priority=1' });
    await store.save(ALICE, { name: 'B', address: '/?priority=2' });
    await store.save(BOB, { name: 'A', address: '/?priority=1' });
    expect(await store.purge(ALICE)).toBe(2);
    expect(await store.list(ALICE)).toEqual([]);
    expect(await store.list(BOB)).toHaveLength(1);
  });
}

describe('SqliteSavedFiltersStore', () => {
  describeSavedFiltersContract({
    open: async () => {
      const data = tempDir('tm-saved-filters-');
      return { store: SqliteSavedFiltersStore.open({ dataDir: data.dir }), remove: async () => data.remove() };
    },
  });
});

const mongoUrl = process.env.MONGO_URL;
if (!mongoUrl) {
  console.warn('MongoDB saved filters store suite skipped: MONGO_URL is not set');
}
// No MongoDB server can be installed on the build machines (docs/ARCHITECTURE.md, "Storage"): the suite runs only
// where MONGO_URL points at one, and is registered as skipped (visible in the report) everywhere else.
const describeMongo = mongoUrl ? describe : describe.skip;

describeMongo('MongoSavedFiltersStore', () => {
  describeSavedFiltersContract({
    open: async () => {
      const dbName = `svc_todos_saved_filters_test_${new ObjectId().toHexString()}`;
      const store = await MongoSavedFiltersStore.open({ url: mongoUrl ?? '', dbName });
      return {
        store,
        remove: async () => {
          const admin = await MongoClient.connect(mongoUrl ?? '');
          await admin.db(dbName).dropDatabase();
          await admin.close();
        },
      };
    },
  });
});
