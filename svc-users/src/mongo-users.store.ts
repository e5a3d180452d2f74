import { PublicUser } from '@tm/contracts';
import { MongoClient, MongoServerError, ObjectId, type Collection } from 'mongodb';
import { z } from 'zod';
import { DuplicateEmailError, type NewUser, type UserRecord, type UsersRepository } from './users.repository.js';

export interface MongoUsersOptions {
  url: string;
  dbName: string;
  /** How long to wait for a reachable server before failing (start-up and each operation). */
  serverSelectionTimeoutMS?: number;
}

interface UserDocument {
  _id: ObjectId;
  fullName: string;
  email: string;
  passwordHash: string;
  createdAt: Date;
}

/** Documents are checked on the way out (CONVENTIONS §5: zod at the database edge). */
const PublicDocument = z.object({
  _id: z.instanceof(ObjectId).transform((id) => id.toHexString()),
  fullName: z.string(),
  email: z.string(),
});
const RecordDocument = PublicDocument.extend({ passwordHash: z.string() });

const DUPLICATE_KEY = 11000;
// Not ObjectId.isValid: it also accepts any 12-character string.
const HEX_ID = /^[0-9a-f]{24}$/i;
const PUBLIC_FIELDS = { _id: 1, fullName: 1, email: 1 } as const;

/** The filter for one user, or null when `id` cannot name one (so nothing can match). */
function byId(id: string): { _id: ObjectId } | null {
  return HEX_ID.test(id) ? { _id: new ObjectId(id) } : null;
}

/** True for the server's duplicate-key error on the `email` index (and not, say, on `_id`). */
export function isDuplicateEmail(error: unknown): boolean {
  if (!(error instanceof MongoServerError) || error.code !== DUPLICATE_KEY) return false;
  const keyPattern: unknown = error.keyPattern;
  // Old servers omit keyPattern; then the only unique key we can collide on in practice is email.
  return keyPattern === undefined || (typeof keyPattern === 'object' && keyPattern !== null && 'email' in keyPattern);
}

/**
 * Users in the MongoDB collection `users`, with a unique index on the (normalised) email created at open so
 * two racing signups cannot both win. `_id` is an ObjectId; ids are handed out as 24-hex strings.
 */
export async function openMongoUsersStore(options: MongoUsersOptions): Promise<UsersRepository> {
  const client = new MongoClient(options.url, { serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 5_000 });
  await client.connect();
  const db = client.db(options.dbName);
  const users: Collection<UserDocument> = db.collection<UserDocument>('users');
  try {
    // createIndex(keys, index options, command options): the driver's form that keeps the two apart.
    await users.createIndex({ email: 1 }, { unique: true, name: 'email_unique' }, {});
  } catch (error) {
    await client.close();
    throw error;
  }

  return {
    async create({ fullName, email, passwordHash }: NewUser) {
      const _id = new ObjectId();
      try {
        await users.insertOne({ _id, fullName, email, passwordHash, createdAt: new Date() });
      } catch (error) {
        if (isDuplicateEmail(error)) throw new DuplicateEmailError();
        throw error;
      }
      return PublicUser.parse({ _id: _id.toHexString(), fullName, email });
    },
    async findByEmail(email: string): Promise<UserRecord | null> {
      const doc = await users.findOne({ email }, { projection: { ...PUBLIC_FIELDS, passwordHash: 1 } });
      if (!doc) return null;
      const { passwordHash, ...user } = RecordDocument.parse(doc);
      return { ...PublicUser.parse(user), passwordHash };
    },
    async findById(id: string) {
      const filter = byId(id);
      if (!filter) return null;
      const doc = await users.findOne(filter, { projection: PUBLIC_FIELDS });
      return doc ? PublicUser.parse(PublicDocument.parse(doc)) : null;
    },
    async updatePasswordHash(id: string, passwordHash: string) {
      const filter = byId(id);
      if (!filter) return false;
      const result = await users.updateOne(filter, { $set: { passwordHash } });
      return result.matchedCount > 0;
    },
    async replacePasswordHash(id: string, current: string, next: string) {
      const filter = byId(id);
      if (!filter) return false;
      // One document update is atomic: the hash is swapped only if it is still the one that was checked.
      const result = await users.updateOne({ ...filter, passwordHash: current }, { $set: { passwordHash: next } });
      return result.matchedCount > 0;
    },
    async delete(id: string) {
      const filter = byId(id);
      if (!filter) return false;
      const result = await users.deleteOne(filter);
      return result.deletedCount > 0;
    },
    async ping() {
      const reply = await db.command({ ping: 1 });
      return reply.ok === 1;
    },
    async close() {
      await client.close();
    },
  };
}
