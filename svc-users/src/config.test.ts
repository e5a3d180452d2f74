import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '@tm/test-support';
import { loadUsersConfig } from './config.js';

const SECRET = 's'.repeat(32);

describe('loadUsersConfig', () => {
  let data: ReturnType<typeof tempDir>;
  beforeEach(() => {
    data = tempDir('tm-users-config-');
  });
  afterEach(() => data.remove());

  it('defaults to port 4001, SQLite (no MONGO_URL) and the task_manager database', () => {
    const config = loadUsersConfig({ DATA_DIR: data.dir, INTERNAL_SECRET: SECRET });
    expect(config).toMatchObject({ PORT: 4001, MONGO_DB: 'task_manager', INTERNAL_SECRET: SECRET, HOST: '127.0.0.1' });
    expect(config.MONGO_URL).toBeUndefined();
  });

  it('reads USERS_PORT and MONGO_URL, and treats an empty MONGO_URL as unset', () => {
    expect(loadUsersConfig({ DATA_DIR: data.dir, INTERNAL_SECRET: SECRET, USERS_PORT: '5001', MONGO_URL: 'mongodb://db:27017' })).toMatchObject({
      PORT: 5001,
      MONGO_URL: 'mongodb://db:27017',
    });
    expect(loadUsersConfig({ DATA_DIR: data.dir, INTERNAL_SECRET: SECRET, MONGO_URL: '' }).MONGO_URL).toBeUndefined();
  });

  it('leaves PORT to the gateway: `PORT=3000 npm start` moves the app, not svc-users', () => {
    expect(loadUsersConfig({ DATA_DIR: data.dir, INTERNAL_SECRET: SECRET, PORT: '3000' }).PORT).toBe(4001);
  });

  it('refuses a blank USERS_PORT instead of listening on a random port', () => {
    expect(() => loadUsersConfig({ DATA_DIR: data.dir, INTERNAL_SECRET: SECRET, USERS_PORT: '' })).toThrow(/USERS_PORT/);
  });

  it('names every bad variable in one error', () => {
    expect(() => loadUsersConfig({ DATA_DIR: data.dir, USERS_PORT: 'eighty', NODE_ENV: 'staging' })).toThrow(/USERS_PORT[\s\S]*NODE_ENV|NODE_ENV[\s\S]*USERS_PORT/);
  });

  it('keeps the mails in the local outbox by default, and reads SMTP_URL and MAIL_FROM', () => {
    expect(loadUsersConfig({ DATA_DIR: data.dir, INTERNAL_SECRET: SECRET })).toMatchObject({ SMTP_URL: undefined, MAIL_FROM: 'Task Manager <no-reply@localhost>' });
    expect(loadUsersConfig({ DATA_DIR: data.dir, INTERNAL_SECRET: SECRET, SMTP_URL: '', MAIL_FROM: '' }).SMTP_URL).toBeUndefined();
    expect(
      loadUsersConfig({ DATA_DIR: data.dir, INTERNAL_SECRET: SECRET, SMTP_URL: 'smtps://user:pass@mail.example.com:465', MAIL_FROM: 'Tasks <no-reply@example.com>' }),
    ).toMatchObject({ SMTP_URL: 'smtps://user:pass@mail.example.com:465', MAIL_FROM: 'Tasks <no-reply@example.com>' });
  });

  it('refuses SMTP_URL without MAIL_FROM, and a URL that is not SMTP', () => {
    expect(() => loadUsersConfig({ DATA_DIR: data.dir, INTERNAL_SECRET: SECRET, SMTP_URL: 'smtp://mail.example.com:587' })).toThrow(/MAIL_FROM: is required when SMTP_URL is set/);
    expect(() => loadUsersConfig({ DATA_DIR: data.dir, INTERNAL_SECRET: SECRET, SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'a@example.com' })).toThrow(/SMTP_URL: must be an smtp/);
  });

  it('uses the shared local secret outside production', () => {
    const config = loadUsersConfig({ DATA_DIR: data.dir, NODE_ENV: 'development' });
    const secrets = JSON.parse(readFileSync(path.join(data.dir, 'secrets.json'), 'utf8')) as { internalSecret: string };
    expect(config.INTERNAL_SECRET).toBe(secrets.internalSecret);
  });

  it('refuses to start in production without INTERNAL_SECRET, or with a short one', () => {
    expect(() => loadUsersConfig({ DATA_DIR: data.dir, NODE_ENV: 'production' })).toThrow(/INTERNAL_SECRET: is required in production/);
    expect(() => loadUsersConfig({ DATA_DIR: data.dir, NODE_ENV: 'production', INTERNAL_SECRET: 'short' })).toThrow(/at least 32/);
  });
});
