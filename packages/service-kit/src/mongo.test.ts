import { connectMongo, isClassicUpdate, type MongoDriver } from './mongo.js';

/** A driver whose client records what it is asked; the store suites run against a real server (MONGO_URL). */
function fakeDriver({ connectFails = false, indexFails = false } = {}) {
  const calls: unknown[][] = [];
  const db = {
    collection: (name: string) => ({
      createIndexes: async (specs: unknown[]) => {
        calls.push(['createIndexes', name, specs]);
        if (indexFails) throw new Error('index refused');
        return [];
      },
    }),
    command: async (command: unknown) => {
      calls.push(['command', command]);
      return { ok: 1 };
    },
  };
  class FakeClient {
    constructor(url: string, options: unknown) {
      calls.push(['new', url, options]);
    }
    async connect() {
      calls.push(['connect']);
      if (connectFails) throw new Error('no server');
    }
    db(name: string) {
      calls.push(['db', name]);
      return db;
    }
    async close() {
      calls.push(['close']);
    }
  }
  return { driver: { MongoClient: FakeClient as unknown as MongoDriver['MongoClient'] }, calls };
}

describe('connectMongo', () => {
  it('connects, makes sure of the indexes per collection, runs setup, pings and closes', async () => {
    const { driver, calls } = fakeDriver();
    const setup = jest.fn(async () => undefined);
    const index = { key: { email: 1 as const }, unique: true, name: 'email_unique' };
    const connection = await connectMongo(driver, 'mongodb://example.invalid/', { dbName: 'tm', indexes: { users: [index], empty: [] }, setup });
    expect(calls).toEqual([
      ['new', 'mongodb://example.invalid/', { serverSelectionTimeoutMS: 5000 }],
      ['connect'],
      ['db', 'tm'],
      ['createIndexes', 'users', [index]],
    ]);
    expect(setup).toHaveBeenCalledWith(connection.db);
    await expect(connection.ping()).resolves.toBe(true);
    await connection.close();
    expect(calls.slice(-2)).toEqual([['command', { ping: 1 }], ['close']]);
    expect(connection.client).toBeDefined();
  });

  it.each([
    ['the server cannot be reached', { connectFails: true }, 'no server'],
    ['an index is refused', { indexFails: true }, 'index refused'],
  ])('rejects, with the client closed, when %s', async (_, failure, message) => {
    const { driver, calls } = fakeDriver(failure);
    await expect(connectMongo(driver, 'mongodb://example.invalid/', { dbName: 'tm', serverSelectionTimeoutMS: 200, indexes: { users: [{ key: { email: 1 } }] } })).rejects.toThrow(message);
    expect(calls[0]).toEqual(['new', 'mongodb://example.invalid/', { serverSelectionTimeoutMS: 200 }]);
    expect(calls.at(-1)).toEqual(['close']);
  });
});

describe('isClassicUpdate', () => {
  it('accepts update operators with plain values', () => {
    expect(isClassicUpdate({ $set: { title: 'a', updatedAt: new Date() }, $unset: { deletedAt: '' } })).toBe(true);
    expect(isClassicUpdate({ $inc: { seq: 1 } })).toBe(true);
    expect(isClassicUpdate({ $set: { passwordHash: '$argon2id$v=19$...' } })).toBe(true);
  });

  it('refuses pipeline updates, replacements and aggregation expressions', () => {
    expect(isClassicUpdate([{ $set: { updatedAt: '$$NOW' } }])).toBe(false);
    expect(isClassicUpdate({ title: 'a replacement document' })).toBe(false);
    expect(isClassicUpdate({ $set: { updatedAt: { $cond: [{ $eq: ['$title', 'x'] }, '$updatedAt', '$$NOW'] } } })).toBe(false);
    expect(isClassicUpdate({})).toBe(false);
    expect(isClassicUpdate(null)).toBe(false);
  });
});
