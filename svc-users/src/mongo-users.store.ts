import { PublicUser } from '@tm/contracts';
import { connectMongo, type MongoConnection } from '@tm/service-kit/mongo';
import { MongoClient, MongoServerError, ObjectId, WriteConcern, type Collection, type UpdateFilter } from 'mongodb';
import { z } from 'zod';
import {
  DuplicateEmailError,
  type CalendarFeedRecord,
  type NewPasswordReset,
  type NewUser,
  type PasswordHashEffects,
  type PasswordResetRecord,
  type ProfileChanges,
  type UserRecord,
  type UsersRepository,
} from './users.repository.js';

const USERS_COLLECTION = 'users';
/** Password reset links (SECURITY.md "Password reset"), keyed by the SHA-256 digest of the token, never the token. */
const RESETS_COLLECTION = 'password_resets';

export interface MongoUsersOptions {
  url: string;
  dbName: string;
  /** How long to wait for a reachable server before failing (start-up and each operation). */
  serverSelectionTimeoutMS?: number;
  /** Source of `createdAt`; tests may inject a fake clock. */
  now?: () => Date;
}

interface UserDocument {
  _id: ObjectId;
  fullName: string;
  email: string;
  passwordHash: string;
  createdAt: Date;
  /** The account's IANA time zone (docs/PRODUCT.md §10.14); absent while none is set, as in documents written before it. */
  timeZone?: string;
  /**
   * The account's calendar feed (docs/PRODUCT.md §10.18): the SHA-256 of its token and when it was made; absent
   * while it is off, as in documents written before it.
   */
  calendarFeed?: { tokenHash: string; createdAt: Date };
}

interface PasswordResetDocument {
  /** The token's digest. */
  _id: string;
  userId: ObjectId;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/** Documents are checked on the way out (docs/ARCHITECTURE.md, "Layers": zod at the database edge). */
const PublicDocument = z.object({
  _id: z.instanceof(ObjectId).transform((id) => id.toHexString()),
  fullName: z.string(),
  email: z.string(),
  timeZone: z.string().optional(),
});
const RecordDocument = PublicDocument.extend({ passwordHash: z.string() });
const FeedDocument = z.object({ calendarFeed: z.object({ tokenHash: z.string(), createdAt: z.date() }).optional() });
const ResetDocument = z.object({
  _id: z.string(),
  userId: z.instanceof(ObjectId).transform((id) => id.toHexString()),
  createdAt: z.date(),
  expiresAt: z.date(),
  usedAt: z.date().nullable().default(null),
});

const DUPLICATE_KEY = 11000;
// Not ObjectId.isValid: it also accepts any 12-character string.
const HEX_ID = /^[0-9a-f]{24}$/i;
const PUBLIC_FIELDS = { _id: 1, fullName: 1, email: 1, timeZone: 1 } as const;

/** The filter for one user, or null when `id` cannot name one (so nothing can match). */
function byId(id: string): { _id: ObjectId } | null {
  return HEX_ID.test(id) ? { _id: new ObjectId(id) } : null;
}

/** The update that stores a new password hash: a classic `$set` (no pipeline update, docs/ARCHITECTURE.md, "Storage"). */
export function passwordHashUpdate(passwordHash: string): UpdateFilter<UserDocument> {
  return { $set: { passwordHash } };
}

/** The update that sets a new name, email and/or time zone: a classic `$set` of the given fields only. */
export function profileUpdate({ fullName, email, timeZone }: ProfileChanges): UpdateFilter<UserDocument> {
  return {
    $set: {
      ...(fullName === undefined ? {} : { fullName }),
      ...(email === undefined ? {} : { email }),
      ...(timeZone === undefined ? {} : { timeZone }),
    },
  };
}

/** The update that gives a user a calendar feed, replacing the one it had: a classic `$set`. */
export function calendarFeedUpdate(feed: CalendarFeedRecord): UpdateFilter<UserDocument> {
  return { $set: { calendarFeed: { tokenHash: feed.tokenHash, createdAt: feed.createdAt } } };
}

/** The update that removes a user's calendar feed: a classic `$unset`. */
export function calendarFeedRemoval(): UpdateFilter<UserDocument> {
  return { $unset: { calendarFeed: '' } };
}

/** The update that marks a reset link used: a classic `$set`. */
export function resetUsedUpdate(usedAt: Date): UpdateFilter<PasswordResetDocument> {
  return { $set: { usedAt } };
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
 *
 * A password write that ends the user's reset links changes two collections in one multi-document
 * transaction (`client.withSession` + `session.withTransaction`), which needs MongoDB to run as a replica set,
 * as for svc-todos (docs/ARCHITECTURE.md "Storage"). The other writes are single-document operations, each
 * atomic on its own; `delete` is two (see there).
 */
export class MongoUsersStore implements UsersRepository {
  private readonly users: Collection<UserDocument>;
  private readonly resets: Collection<PasswordResetDocument>;

  private constructor(
    private readonly connection: MongoConnection,
    private readonly now: () => Date,
  ) {
    this.users = connection.db.collection<UserDocument>(USERS_COLLECTION);
    this.resets = connection.db.collection<PasswordResetDocument>(RESETS_COLLECTION);
  }

  /** Connects and makes sure of the email index; rejects (with the client closed) when unreachable. */
  static async open({ url, dbName, serverSelectionTimeoutMS, now = () => new Date() }: MongoUsersOptions): Promise<MongoUsersStore> {
    const connection = await connectMongo({ MongoClient }, url, {
      dbName,
      serverSelectionTimeoutMS,
      indexes: {
        [USERS_COLLECTION]: [
          { key: { email: 1 }, unique: true, name: 'email_unique' },
          // A feed is found by its token's digest; only accounts with a feed are in the index (PRODUCT §10.18).
          { key: { 'calendarFeed.tokenHash': 1 }, unique: true, name: 'calendar_feed_unique', partialFilterExpression: { 'calendarFeed.tokenHash': { $type: 'string' } } },
        ],
        // By user (removing a user's links); by expiry, with MongoDB's own TTL sweep removing expired links too.
        [RESETS_COLLECTION]: [
          { key: { userId: 1 }, name: 'by_user' },
          { key: { expiresAt: 1 }, name: 'expiry_ttl', expireAfterSeconds: 0 },
        ],
      },
    });
    return new MongoUsersStore(connection, now);
  }

  async create({ fullName, email, passwordHash, timeZone }: NewUser): Promise<PublicUser> {
    const _id = new ObjectId();
    // No time zone, no field: a document without one reads as "none set", like those written before it.
    const zone = timeZone === undefined ? {} : { timeZone };
    try {
      await this.users.insertOne({ _id, fullName, email, passwordHash, createdAt: this.now(), ...zone });
    } catch (error) {
      if (isDuplicateEmail(error)) throw new DuplicateEmailError();
      throw error;
    }
    return PublicUser.parse({ _id: _id.toHexString(), fullName, email, ...zone });
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

  async replacePasswordHash(id: string, current: string, next: string, { endResetLinks = false }: PasswordHashEffects = {}): Promise<boolean> {
    const filter = byId(id);
    if (!filter) return false;
    // One document update is atomic: the hash is swapped only if it is still the one that was checked.
    const swap = { ...filter, passwordHash: current };
    if (!endResetLinks) return (await this.users.updateOne(swap, passwordHashUpdate(next))).matchedCount > 0;
    // The driver may run the callback again (transient errors): it touches the database only through `session`.
    return this.connection.client.withSession((session) =>
      session.withTransaction(
        async (transaction) => {
          const swapped = await this.users.updateOne(swap, passwordHashUpdate(next), { session: transaction });
          if (swapped.matchedCount === 0) return false;
          await this.resets.deleteMany({ userId: filter._id }, { session: transaction });
          return true;
        },
        { readConcern: { level: 'snapshot' }, writeConcern: new WriteConcern('majority') },
      ),
    );
  }

  async updateProfile(id: string, changes: ProfileChanges): Promise<PublicUser | null> {
    const filter = byId(id);
    if (!filter) return null;
    // MongoDB refuses an empty `$set`; nothing to change is the user as it is.
    if (changes.fullName === undefined && changes.email === undefined && changes.timeZone === undefined) return this.findById(id);
    try {
      const doc = await this.users.findOneAndUpdate(filter, profileUpdate(changes), { returnDocument: 'after', projection: PUBLIC_FIELDS });
      return doc ? PublicUser.parse(PublicDocument.parse(doc)) : null;
    } catch (error) {
      if (isDuplicateEmail(error)) throw new DuplicateEmailError();
      throw error;
    }
  }

  async delete(id: string): Promise<boolean> {
    const filter = byId(id);
    if (!filter) return false;
    const result = await this.users.deleteOne(filter);
    // After the user: a link left behind by a failure here leads to no account, and the TTL index removes it.
    await this.resets.deleteMany({ userId: filter._id });
    return result.deletedCount > 0;
  }

  async setCalendarFeed(id: string, feed: CalendarFeedRecord): Promise<boolean> {
    const filter = byId(id);
    if (!filter) return false;
    return (await this.users.updateOne(filter, calendarFeedUpdate(feed))).matchedCount > 0;
  }

  async clearCalendarFeed(id: string): Promise<boolean> {
    const filter = byId(id);
    if (!filter) return false;
    return (await this.users.updateOne(filter, calendarFeedRemoval())).matchedCount > 0;
  }

  async findCalendarFeed(id: string): Promise<CalendarFeedRecord | null> {
    const filter = byId(id);
    if (!filter) return null;
    const doc = await this.users.findOne(filter, { projection: { _id: 0, calendarFeed: 1 } });
    return doc ? (FeedDocument.parse(doc).calendarFeed ?? null) : null;
  }

  async findByCalendarFeed(tokenHash: string): Promise<PublicUser | null> {
    const doc = await this.users.findOne({ 'calendarFeed.tokenHash': tokenHash }, { projection: PUBLIC_FIELDS });
    return doc ? PublicUser.parse(PublicDocument.parse(doc)) : null;
  }

  async createPasswordReset({ tokenHash, userId, createdAt, expiresAt }: NewPasswordReset): Promise<void> {
    const filter = byId(userId);
    if (!filter) throw new Error('a password reset needs a user id of 24 hexadecimal characters');
    await this.resets.insertOne({ _id: tokenHash, userId: filter._id, createdAt, expiresAt, usedAt: null });
  }

  async findPasswordReset(tokenHash: string): Promise<PasswordResetRecord | null> {
    const doc = await this.resets.findOne({ _id: tokenHash });
    if (!doc) return null;
    const { _id, ...reset } = ResetDocument.parse(doc);
    return { tokenHash: _id, ...reset };
  }

  async consumePasswordReset(tokenHash: string, usedAt: Date): Promise<boolean> {
    // One document update is atomic: of two requests with one link, only one finds it unused.
    const result = await this.resets.updateOne({ _id: tokenHash, usedAt: null }, resetUsedUpdate(usedAt));
    return result.matchedCount > 0;
  }

  async deletePasswordResets(userId: string): Promise<number> {
    const filter = byId(userId);
    if (!filter) return 0;
    return (await this.resets.deleteMany({ userId: filter._id })).deletedCount;
  }

  async deleteExpiredPasswordResets(now: Date): Promise<number> {
    return (await this.resets.deleteMany({ expiresAt: { $lt: now } })).deletedCount;
  }

  async ping(): Promise<boolean> {
    return this.connection.ping();
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
