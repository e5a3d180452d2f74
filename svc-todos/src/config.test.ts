import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '@tm/test-support';
import { loadTodosConfig } from './config.js';

const SECRET = 's'.repeat(32);

describe('loadTodosConfig', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => { dir = tempDir('svc-todos-config-'); });
  afterEach(() => dir.remove());

  test('defaults: port 4002, SQLite (no MongoDB URL), database task_manager', () => {
    const config = loadTodosConfig({ DATA_DIR: dir.dir, INTERNAL_SECRET: SECRET });
    expect(config).toMatchObject({ PORT: 4002, MONGO_DB: 'task_manager', INTERNAL_SECRET: SECRET });
    expect(config.MONGO_URL).toBeUndefined();
  });

  test('reads TODOS_PORT, MONGO_URL and MONGO_DB; an empty MONGO_URL means unset; PORT belongs to the gateway', () => {
    expect(loadTodosConfig({ DATA_DIR: dir.dir, INTERNAL_SECRET: SECRET, PORT: '3000' }).PORT).toBe(4002);
    const env = { DATA_DIR: dir.dir, INTERNAL_SECRET: SECRET, TODOS_PORT: '5002', MONGO_URL: 'mongodb://db:27017', MONGO_DB: 'tm' };
    expect(loadTodosConfig(env)).toMatchObject({ PORT: 5002, MONGO_URL: 'mongodb://db:27017', MONGO_DB: 'tm' });
    expect(loadTodosConfig({ ...env, MONGO_URL: '' }).MONGO_URL).toBeUndefined();
  });

  test('live changes and Undo: defaults (no Redis, 60 s restore window, 10 min of events, 15 s heartbeat, 2000 streams)', () => {
    const config = loadTodosConfig({ DATA_DIR: dir.dir, INTERNAL_SECRET: SECRET });
    expect(config.REDIS_URL).toBeUndefined();
    expect(config).toMatchObject({
      TODO_RESTORE_WINDOW_MS: 60_000,
      TODO_EVENTS_RETENTION_MS: 600_000,
      TODO_SWEEP_INTERVAL_MS: 30_000,
      TODO_EVENTS_HEARTBEAT_MS: 15_000,
      TODO_EVENTS_MAX_STREAMS: 7_000,
    });
  });

  test('reads REDIS_URL (empty means unset) and the live-change settings; bad values stop start-up naming them', () => {
    const env = {
      DATA_DIR: dir.dir,
      INTERNAL_SECRET: SECRET,
      REDIS_URL: 'redis://cache:6379',
      TODO_RESTORE_WINDOW_MS: '120000',
      TODO_EVENTS_RETENTION_MS: '300000',
      TODO_SWEEP_INTERVAL_MS: '5000',
      TODO_EVENTS_HEARTBEAT_MS: '20000',
      TODO_EVENTS_MAX_STREAMS: '50',
    };
    expect(loadTodosConfig(env)).toMatchObject({
      REDIS_URL: 'redis://cache:6379',
      TODO_RESTORE_WINDOW_MS: 120_000,
      TODO_EVENTS_RETENTION_MS: 300_000,
      TODO_SWEEP_INTERVAL_MS: 5_000,
      TODO_EVENTS_HEARTBEAT_MS: 20_000,
      TODO_EVENTS_MAX_STREAMS: 50,
    });
    expect(loadTodosConfig({ ...env, REDIS_URL: '' }).REDIS_URL).toBeUndefined();
    expect(() => loadTodosConfig({ ...env, REDIS_URL: 'not a url' })).toThrow(/REDIS_URL/);
    expect(() => loadTodosConfig({ ...env, TODO_RESTORE_WINDOW_MS: 'soon' })).toThrow(/TODO_RESTORE_WINDOW_MS/);
    expect(() => loadTodosConfig({ ...env, TODO_EVENTS_MAX_STREAMS: '0' })).toThrow(/TODO_EVENTS_MAX_STREAMS/);
  });

  test('a bad TODOS_PORT stops start-up with a message naming it', () => {
    expect(() => loadTodosConfig({ DATA_DIR: dir.dir, INTERNAL_SECRET: SECRET, TODOS_PORT: 'eighty' })).toThrow(/TODOS_PORT/);
  });

  test('outside production, a missing secret falls back to the local one shared through DATA_DIR', () => {
    const config = loadTodosConfig({ DATA_DIR: dir.dir, NODE_ENV: 'development' });
    const shared = JSON.parse(readFileSync(path.join(dir.dir, 'secrets.json'), 'utf8')) as { internalSecret: string };
    expect(config.INTERNAL_SECRET).toBe(shared.internalSecret);
  });

  test('in production a missing or short secret is fatal', () => {
    expect(() => loadTodosConfig({ DATA_DIR: dir.dir, NODE_ENV: 'production' })).toThrow(/INTERNAL_SECRET: is required/);
    expect(() => loadTodosConfig({ DATA_DIR: dir.dir, INTERNAL_SECRET: 'short' })).toThrow(/at least 32/);
  });
});
