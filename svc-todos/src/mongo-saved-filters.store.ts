import { bySavedFilterName, type SavedFilter, type SaveFilterRequest } from '@tm/contracts';
import { connectMongo, type MongoConnection } from '@tm/service-kit/mongo';
import { MongoClient, ObjectId, WriteConcern, type ClientSession, type Collection } from 'mongodb';
import { decideSave } from './saved-filters.domain.js';
import type { SavedFiltersRepository, SaveOutcome } from './saved-filters.repository.js';

/** One document per saved filter (docs/PRODUCT.md §10.20), `_id` its id. */
export const SAVED_FILTERS_COLLECTION = 'savedFilters';

interface SavedFilterDocument {
  _id: string;
  userId: string;
  name: string;
  /** The name in lower case: one filter per name and person (a unique index), case aside. */
  nameKey: string;
  address: string;
  createdAt: Date;
  updatedAt: Date;
}

const filterOf = (doc: SavedFilterDocument): SavedFilter => ({ _id: doc._id, name: doc.name, address: doc.address, createdAt: doc.createdAt.toISOString(), updatedAt: doc.updatedAt.toISOString() });

export interface MongoSavedFiltersOptions {
  url: string;
  dbName: string;
  serverSelectionTimeoutMS?: number;
}

/**
 * Saved filters in MongoDB: a save reads the person's filters and writes in one transaction
 * (`client.withSession` + `session.withTransaction`), so two saves of one person never both pass the limit;
 * the unique index on (userId, nameKey) keeps one filter per name whatever happens.
 */
export class MongoSavedFiltersStore implements SavedFiltersRepository {
  private readonly filters: Collection<SavedFilterDocument>;

  private constructor(private readonly connection: MongoConnection) {
    this.filters = connection.db.collection<SavedFilterDocument>(SAVED_FILTERS_COLLECTION);
  }

  static async open({ url, dbName, serverSelectionTimeoutMS }: MongoSavedFiltersOptions): Promise<MongoSavedFiltersStore> {
    const connection = await connectMongo({ MongoClient }, url, {
      dbName,
      serverSelectionTimeoutMS,
      indexes: { [SAVED_FILTERS_COLLECTION]: [{ key: { userId: 1, nameKey: 1 }, name: 'user_name', unique: true }] },
    });
    return new MongoSavedFiltersStore(connection);
  }

  async list(userId: string): Promise<SavedFilter[]> {
    return (await this.filters.find({ userId }).toArray()).map(filterOf).sort(bySavedFilterName);
  }

  async save(userId: string, input: SaveFilterRequest): Promise<SaveOutcome> {
    return this.connection.client.withSession((session: ClientSession) =>
      session.withTransaction(
        async (): Promise<SaveOutcome> => {
          const existing = await this.filters.find({ userId }, { session, projection: { _id: 1, nameKey: 1 } }).toArray();
          const decision = decideSave(
            existing.map((doc) => ({ id: doc._id, nameKey: doc.nameKey })),
            input,
          );
          const now = new Date();
          switch (decision.kind) {
            case 'full':
              return decision;
            case 'update': {
              const after = await this.filters.findOneAndUpdate(
                { _id: decision.id, userId },
                { $set: { name: input.name, address: input.address, updatedAt: now } },
                { session, returnDocument: 'after' },
              );
              // Read in this transaction's snapshot a moment ago: it is there.
              if (after === null) throw new Error('a saved filter read in the transaction was not found by its update');
              return { kind: 'updated', filter: filterOf(after) };
            }
            case 'insert': {
              const doc: SavedFilterDocument = { _id: new ObjectId().toHexString(), userId, name: input.name, nameKey: decision.nameKey, address: input.address, createdAt: now, updatedAt: now };
              await this.filters.insertOne(doc, { session });
              return { kind: 'created', filter: filterOf(doc) };
            }
          }
        },
        { readConcern: { level: 'snapshot' }, writeConcern: new WriteConcern('majority') },
      ),
    );
  }

  async remove(userId: string, id: string): Promise<SavedFilter | null> {
    const doc = await this.filters.findOneAndDelete({ _id: id, userId });
    return doc ? filterOf(doc) : null;
  }

  async purge(userId: string): Promise<number> {
    return (await this.filters.deleteMany({ userId })).deletedCount;
  }

  async ping(): Promise<boolean> {
    return this.connection.ping();
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

