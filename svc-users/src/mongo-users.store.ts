import { PublicUser } from '@tm/contracts';
import { connectMongo, type MongoConnection } from '@tm/service-kit/mongo';
import { MongoClient, MongoServerError, ObjectId, type Collection, type UpdateFilter } from 'mongodb';
import { z } from 'zod';
import { DuplicateEmailError, type NewUser, type UserRecord, type UsersRepository, type UsersStoreOptions } from './users.repository.js';

const USERS_COLLECTION = 'users';

export interface MongoUsersOptions extends UsersStoreOptions {
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

/** Documents are checked on the way out (docs/ARCHITECTURE.md, "Layers": zod at the database edge). */
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

/** The update that stores a new password hash: a classic `$set` (no pipeline update, docs/ARCHITECTURE.md, "Storage"). */
export function passwordHashUpdate(passwordHash: string): UpdateFilter<UserDocument> {
  return { $set: { passwordHash } };
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
export class MongoUsersStore implements UsersRepository {
  private readonly users: Collection<UserDocument>;

  private constructor(
    private readonly connection: MongoConnection,
    private readonly now: () => Date,
  ) {
    this.users = connection.db.collection<UserDocument>(USERS_COLLECTION);
  }

  /** Connects and makes sure of the email index; rejects (with the client closed) when unreachable. */
  static async open({ url, dbName, serverSelectionTimeoutMS, now = () => new Date() }: MongoUsersOptions): Promise<MongoUsersStore> {
    const connection = await connectMongo({ MongoClient }, url, {
      dbName,
      serverSelectionTimeoutMS,
      indexes: { [USERS_COLLECTION]: [{ key: { email: 1 }, unique: true, name: 'email_unique' }] },
    });
    return new MongoUsersStore(connection, now);
  }

  async create({ fullName, email, passwordHash }: NewUser): Promise<PublicUser> {
    const _id = new ObjectId();
    try {
      await this.users.insertOne({ _id, fullName, email, passwordHash, createdAt: this.now() });
    } catch (error) {
      if (isDuplicateEmail(error)) throw new DuplicateEmailError();
      throw error;
    }
    return PublicUser.parse({ _id: _id.toHexString(), fullName, email });
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const doc = await this.users.findOne({ email }, { projection: { ...PUBLIC_FIELDS, passwordHash: 1 } });
    if (!doc) return null;
    const { passwordHash, ...user } = RecordDocument.parse(doc);
    return { ...PublicUser.parse(user), passwordHash };
  }

  async findById(id: string): Promise<PublicUser | null> {
    const filter = byId(id);
    if (!filter) return null;
    const doc = await this.users.findOne(filter, { projection: PUBLIC_FIELDS });
    return doc ? PublicUser.parse(PublicDocument.parse(doc)) : null;
  }

  async updatePasswordHash(id: string, passwordHash: string): Promise<boolean> {
    const filter = byId(id);
    if (!filter) return false;
    const result = await this.users.updateOne(filter, passwordHashUpdate(passwordHash));
    return result.matchedCount > 0;
  }

  async replacePasswordHash(id: string, current: string, next: string): Promise<boolean> {
    const filter = byId(id);
    if (!filter) return false;
    // One document update is atomic: the hash is swapped only if it is still the one that was checked.
    const result = await this.users.updateOne({ ...filter, passwordHash: current }, passwordHashUpdate(next));
    return result.matchedCount > 0;
  }

  async delete(id: string): Promise<boolean> {
    const filter = byId(id);
    if (!filter) return false;
    const result = await this.users.deleteOne(filter);
    return result.deletedCount > 0;
  }

  async ping(): Promise<boolean> {
    return this.connection.ping();
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
