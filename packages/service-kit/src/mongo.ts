// Types only: the driver itself is the caller's dependency (see connectMongo), so an app that never uses
// MongoDB (the gateway) never installs it.
import type { Db, IndexDescription, MongoClient, MongoClientOptions } from 'mongodb';

/** The part of the `mongodb` package connectMongo uses: `import { MongoClient } from 'mongodb'` gives it. */
export interface MongoDriver {
  MongoClient: new (url: string, options?: MongoClientOptions) => MongoClient;
}

export interface ConnectMongoOptions {
  dbName: string;
  /** How long to wait for a reachable server, at start-up and for each operation (default 5 s). */
  serverSelectionTimeoutMS?: number;
  /** Indexes to make sure of, per collection name (`createIndexes`: creating an existing one is a no-op). */
  indexes?: Record<string, IndexDescription[]>;
  /** Anything else to prepare once connected (documents a store expects to exist, ...). */
  setup?: (db: Db) => Promise<void>;
}

export interface MongoConnection {
  client: MongoClient;
  db: Db;
  /** Readiness: true when the server answers `ping`; rejects when it cannot be reached. */
  ping: () => Promise<boolean>;
  close: () => Promise<void>;
}

/**
 * Connects to MongoDB the way every store does (docs/ARCHITECTURE.md, "Storage"): connect, make sure of the
 * indexes, run `setup`. Rejects, with the client closed again, when the server is unreachable or refuses an
 * index. The URL may carry credentials: never log it.
 */
export async function connectMongo(
  { MongoClient }: MongoDriver,
  url: string,
  { dbName, serverSelectionTimeoutMS = 5_000, indexes = {}, setup }: ConnectMongoOptions,
): Promise<MongoConnection> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS });
  try {
    await client.connect();
    const db = client.db(dbName);
    for (const [collection, descriptions] of Object.entries(indexes)) {
      if (descriptions.length > 0) await db.collection(collection).createIndexes(descriptions);
    }
    if (setup) await setup(db);
    return {
      client,
      db,
      ping: async () => (await db.command({ ping: 1 })).ok === 1,
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/** Update operators that replace values in place: what every MongoDB-compatible engine accepts. */
const CLASSIC_OPERATORS: ReadonlySet<string> = new Set(['$set', '$unset', '$inc', '$max', '$min', '$setOnInsert', '$push', '$pull', '$addToSet', '$currentDate', '$mul', '$rename']);

/**
 * True for a classic update document (`{ $set: {...}, $unset: {...} }`), false for an aggregation pipeline
 * (an array: several MongoDB-compatible engines and managed services refuse it, "Aggregation pipelines are
 * not supported") or a replacement document. The stores' tests hold every update they build to it.
 */
export function isClassicUpdate(update: unknown): boolean {
  if (update === null || typeof update !== 'object' || Array.isArray(update)) return false;
  const operators = Object.entries(update as Record<string, unknown>);
  return operators.length > 0 && operators.every(([operator, fields]) => CLASSIC_OPERATORS.has(operator) && !hasExpression(fields));
}

/** An aggregation expression (`{ $cond: ... }`, `'$field'` paths are only meaningful in pipelines) anywhere in plain objects. */
function hasExpression(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasExpression);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.entries(value).some(([key, inner]) => key.startsWith('$') || hasExpression(inner));
}
