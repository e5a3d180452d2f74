/**
 * @tm/sync: offline-first tasks on the device (docs/PRODUCT.md §10.4), framework-free, for the page
 * (mfe-tasks) and for Node clients alike.
 *
 * - sync.domain.ts: the commands each action queues (`addTaskCommand`, `updateTaskCommand`, `createListCommand`…) and the pure
 *   rules (`applyCommand`, `applyChange`, `viewOf`, `rewriteCommand`, `outcomeOf`, `backoffMs`).
 * - outbox-db.ts: the per-user IndexedDB outbox (`Outbox`), and `deleteDeviceData` / `deleteAllDeviceData`
 *   for logout, an ended session, a password change or an account deletion.
 * - engine.ts: `SyncEngine` (`start`, `view`, `lists`, `status`, `subscribe`, `enqueue`, `flush`, `pull`,
 *   `applyRemote`, `dismiss`, `resolveId`, `stop`).
 * - transport.ts: the `SyncTransport` the engine calls, `SyncTransportError` (what a transport throws when a
 *   call fails: `status` null without an answer, 401 signed out), and `createFetchTransport` for Node.
 *
 * In Node, import 'fake-indexeddb/auto' first (idb checks values against IndexedDB's global classes) and
 * give each simulated device its own `new IDBFactory()` from fake-indexeddb as `indexedDB`.
 */
export * from './sync.domain.js';
export { DATABASE_PREFIX, deleteAllDeviceData, deleteDeviceData, Outbox, REGISTRY_DATABASE, databaseName, usersWithDeviceData, type IdEntry, type OpenOptions, type OutboxState, type OutboxWrite, type RefusedCommand, type Snapshot } from './outbox-db.js';
export { SyncEngine, startSyncEngine, type SyncEngineOptions, type SyncStatus } from './engine.js';
export { createFetchTransport, retryAfterMs, SyncTransportError, type FetchTransportOptions, type SyncTransport } from './transport.js';
