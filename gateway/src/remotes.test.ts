import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import type { RemoteBuildInfo } from '@tm/contracts';
import { createLogger, type Logger } from '@tm/service-kit';
import { listen, type Started, tempDir } from '@tm/test-support';
import { createApp } from './app.js';
import { readGatewayConfig } from './config.js';
import { parseRemoteList, RemoteFolders } from './remote-folders.js';
import { SqliteSessionStore } from './sqlite-session.store.js';
import { testGatewayConfig } from './gateway.test-helpers.js';

const AUTH: RemoteBuildInfo = {
  name: 'mfe_auth',
  version: '0.1.0',
  buildId: 'auth-1',
  routes: [
    { path: '/login', module: './LoginPage', guard: 'signed-out', title: 'Sign in', name: 'sign-in screen' },
    { path: '/account', module: './AccountPage', guard: 'signed-in', title: 'Account', name: 'account screen', headerLink: { label: 'Account' } },
  ],
};
const tasksInfo = (buildId: string): RemoteBuildInfo => ({
  name: 'mfe_tasks',
  version: '0.1.0',
  buildId,
  routes: [{ path: '/', module: './TaskListPage', guard: 'signed-in', title: 'Tasks', name: 'task list' }],
});
const STATS: RemoteBuildInfo = {
  name: 'mfe_stats',
  routes: [{ path: '/stats', module: './StatsPage', guard: 'signed-in', title: 'Statistics', name: 'statistics page', headerLink: { label: 'Stats' } }],
};

let data: ReturnType<typeof tempDir>;
let server: Started;
let remotesFile: string;
const errors: string[] = [];

function write(file: string, body: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body);
}

/** A remote's dist/ as its build leaves it: manifest, entry, a hashed chunk and remote.json. */
function remoteBuild(dir: string, info: RemoteBuildInfo | string, chunk: string): string {
  const root = path.join(data.dir, dir);
  write(path.join(root, 'mf-manifest.json'), JSON.stringify({ name: typeof info === 'string' ? 'broken' : info.name, chunk }));
  write(path.join(root, 'remoteEntry.js'), `/* entry of ${dir} */`);
  write(path.join(root, 'assets', chunk), `/* ${dir} */`);
  write(path.join(root, 'remote.json'), typeof info === 'string' ? info : JSON.stringify(info));
  return root;
}

/** Replaces the REMOTES_FILE at once (as a deploy step would: write elsewhere, rename). */
function pointAt(list: Record<string, string>): void {
  write(`${remotesFile}.tmp`, JSON.stringify(list));
  renameSync(`${remotesFile}.tmp`, remotesFile);
}

const get = (urlPath: string) => fetch(server.url + urlPath, { headers: { accept: '*/*' } });
const catalog = async () => (await (await get('/remotes.json')).json()) as { remotes: Record<string, { manifest: string; buildId?: string; routes: unknown[] }> };

/** A request sent exactly as written (fetch would resolve the dots first). */
function rawGet(rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/`, { path: rawPath }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  data = tempDir('tm-remotes-');
  remoteBuild('mfe-auth/dist', AUTH, 'login.aaaaaaaa11.js');
  remoteBuild('releases/tasks-1', tasksInfo('tasks-1'), 'list.1111111111.js');
  write(path.join(data.dir, 'releases/tasks-1/sounds/added.mp3'), 'ID3');
  write(path.join(data.dir, 'secret.txt'), 'top secret');
  remotesFile = path.join(data.dir, 'remotes.json');
  pointAt({ auth: 'mfe-auth/dist', tasks: 'releases/tasks-1' });
  const base = createLogger('remotes-test', 'silent');
  const logger = { error: (message: string) => errors.push(message), info: () => undefined } as unknown as Logger;
  const gateway = createApp({
    config: testGatewayConfig({ usersUrl: 'http://127.0.0.1:9', todosUrl: 'http://127.0.0.1:9' }),
    sessionStore: SqliteSessionStore.open(data.dir),
    logger: base,
    web: { remotes: RemoteFolders.open({ file: remotesFile, logger, recheckMs: 0 }) },
  });
  server = await listen(gateway.app);
});
afterAll(async () => {
  await server.close();
  data.remove();
});

describe('the remotes the gateway serves, from configuration (all-in-one mode)', () => {
  it('makes /remotes.json from each remote’s remote.json, never cached, checked by the catalog’s rules', async () => {
    const response = await get('/remotes.json');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      remotes: {
        mfe_auth: { manifest: '/remotes/auth/mf-manifest.json', version: '0.1.0', buildId: 'auth-1', routes: AUTH.routes },
        mfe_tasks: { manifest: '/remotes/tasks/mf-manifest.json', version: '0.1.0', buildId: 'tasks-1', routes: tasksInfo('').routes },
      },
    });
    const manifest = await get('/remotes/tasks/mf-manifest.json');
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect((await get('/remotes/tasks/remote.json')).headers.get('cache-control')).toBe('no-cache');
    expect((await get('/remotes/tasks/assets/list.1111111111.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get('/sounds/added.mp3')).status).toBe(200);
  });

  it('adds a remote listed in REMOTES_FILE to the next /remotes.json and serves its files, without a restart', async () => {
    expect((await get('/remotes/stats/mf-manifest.json')).status).toBe(404);
    remoteBuild('stats/dist', STATS, 'stats.5555555555.js');
    pointAt({ auth: 'mfe-auth/dist', tasks: 'releases/tasks-1', stats: 'stats/dist' });
    expect((await catalog()).remotes.mfe_stats).toEqual({ manifest: '/remotes/stats/mf-manifest.json', routes: STATS.routes });
    expect((await get('/remotes/stats/mf-manifest.json')).status).toBe(200);
    expect((await get('/remotes/stats/assets/stats.5555555555.js')).status).toBe(200);
    pointAt({ auth: 'mfe-auth/dist', tasks: 'releases/tasks-1' });
    expect((await catalog()).remotes.mfe_stats).toBeUndefined();
    expect((await get('/remotes/stats/mf-manifest.json')).status).toBe(404);
  });

  it('redeploys a remote by pointing its key at a new folder, rolls back by pointing it back, and keeps open pages working', async () => {
    remoteBuild('releases/tasks-2', tasksInfo('tasks-2'), 'list.2222222222.js');
    pointAt({ auth: 'mfe-auth/dist', tasks: 'releases/tasks-2' });
    expect((await catalog()).remotes.mfe_tasks?.buildId).toBe('tasks-2');
    expect(await (await get('/remotes/tasks/mf-manifest.json')).json()).toMatchObject({ chunk: 'list.2222222222.js' });
    // A page opened on build 1 loads a lazy chunk after the switch: still there.
    const old = await get('/remotes/tasks/assets/list.1111111111.js');
    expect(old.status).toBe(200);
    expect(await old.text()).toBe('/* releases/tasks-1 */');
    // Only hashed assets fall back: the entry and the manifest are the new build's.
    expect(await (await get('/remotes/tasks/remoteEntry.js')).text()).toBe('/* entry of releases/tasks-2 */');

    pointAt({ auth: 'mfe-auth/dist', tasks: 'releases/tasks-1' });
    expect((await catalog()).remotes.mfe_tasks?.buildId).toBe('tasks-1');
    expect(await (await get('/remotes/tasks/mf-manifest.json')).json()).toMatchObject({ chunk: 'list.1111111111.js' });
    expect((await get('/remotes/tasks/assets/list.2222222222.js')).status).toBe(200);
  });

  it('keeps the last good list when REMOTES_FILE turns bad, and logs why', async () => {
    errors.length = 0;
    write(remotesFile, '{"auth": "mfe-auth/dist", "tasks": ');
    const kept = await catalog();
    expect(Object.keys(kept.remotes).sort()).toEqual(['mfe_auth', 'mfe_tasks']);
    write(remotesFile, JSON.stringify({ 'Bad Key': 'x' }));
    expect(Object.keys((await catalog()).remotes).sort()).toEqual(['mfe_auth', 'mfe_tasks']);
    expect(errors.some((message) => message.includes('not JSON'))).toBe(true);
    expect(errors.some((message) => message.includes('Bad Key'))).toBe(true);
    pointAt({ auth: 'mfe-auth/dist', tasks: 'releases/tasks-1' });
  });

  it('leaves out, and logs, a remote whose remote.json is missing or bad or clashes with another', async () => {
    errors.length = 0;
    remoteBuild('broken/dist', '{"name": "mfe_broken", "routes": [{"path": "no-slash"}]}', 'b.3333333333.js');
    remoteBuild('clash/dist', { name: 'mfe_clash', routes: [{ path: '/login', module: './Other', guard: 'public', title: 'Other', name: 'other page' }] }, 'c.4444444444.js');
    mkdirSync(path.join(data.dir, 'empty/dist'), { recursive: true });
    pointAt({ auth: 'mfe-auth/dist', tasks: 'releases/tasks-1', broken: 'broken/dist', clash: 'clash/dist', empty: 'empty/dist' });
    expect(Object.keys((await catalog()).remotes).sort()).toEqual(['mfe_auth', 'mfe_tasks']);
    expect(errors.filter((message) => message.startsWith('remote broken ')).length).toBe(1);
    expect(errors.some((message) => message.startsWith('remote clash ') && message.includes('/login'))).toBe(true);
    expect(errors.some((message) => message.startsWith('remote empty ') && message.includes('remote.json'))).toBe(true);
    await catalog();
    expect(errors.filter((message) => message.startsWith('remote broken ')).length).toBe(1);
    // Its files are still served: only the catalog leaves it out.
    expect((await get('/remotes/broken/mf-manifest.json')).status).toBe(200);
    pointAt({ auth: 'mfe-auth/dist', tasks: 'releases/tasks-1' });
  });

  it('answers 404 for an unknown key and refuses path traversal, plain or encoded', async () => {
    for (const unknown of ['/remotes/nope/mf-manifest.json', '/remotes/Auth/mf-manifest.json', '/remotes/tasks', '/remotes/']) {
      expect({ unknown, status: (await get(unknown)).status }).toEqual({ unknown, status: 404 });
    }
    for (const attack of [
      '/remotes/auth/../../secret.txt',
      '/remotes/auth/../../../../etc/passwd',
      '/remotes/auth/..%2F..%2Fsecret.txt',
      '/remotes/auth/%2e%2e/%2e%2e/secret.txt',
      '/remotes/..%2F..%2Fsecret.txt',
      '/remotes/auth/assets/..%2F..%2F..%2Fsecret.txt',
      '/remotes/tasks/assets/..%2F..%2F..%2F..%2Fsecret.0123456789.js',
      '/sounds/..%2F..%2F..%2Fsecret.txt',
    ]) {
      const response = await rawGet(attack);
      expect({ attack, refused: response.status >= 400 }).toEqual({ attack, refused: true });
      expect(response.body).not.toContain('top secret');
      expect(response.body).not.toContain('root:');
    }
  });
});

describe('the remotes configuration', () => {
  const base = { NODE_ENV: 'test', SESSION_KEYS: 'k'.repeat(40), INTERNAL_SECRET: 's'.repeat(40) };

  it('reads REMOTES as key=folder pairs, relative to the working folder; REMOTES_FILE replaces it', () => {
    expect(parseRemoteList('auth=mfe-auth/dist, tasks=/srv/tasks', '/repo')).toEqual({ auth: '/repo/mfe-auth/dist', tasks: '/srv/tasks' });
    expect(readGatewayConfig({ ...base, REMOTES: 'stats=/srv/stats' }).web.remotes).toEqual({ list: { stats: '/srv/stats' } });
    expect(readGatewayConfig({ ...base, REMOTES_FILE: 'remotes.json' }).web.remotes).toEqual({ file: path.resolve('remotes.json') });
    expect(readGatewayConfig({ ...base, REMOTES: 'a=x', REMOTES_FILE: 'f.json' }).web.remotes).toEqual({ file: path.resolve('f.json') });
    expect(readGatewayConfig(base).web.remotes).toBeUndefined();
  });

  it('refuses a bad list or a bad REMOTES_CATALOG, naming the variable', () => {
    expect(() => readGatewayConfig({ ...base, REMOTES: 'Auth=x' })).toThrow(/REMOTES: .*Auth=x/);
    expect(() => readGatewayConfig({ ...base, REMOTES: 'auth' })).toThrow(/REMOTES/);
    expect(() => readGatewayConfig({ ...base, REMOTES: 'a=x,a=y' })).toThrow(/listed twice/);
    expect(() => readGatewayConfig({ ...base, REMOTES_CATALOG: '{"remotes": []}' })).toThrow(/REMOTES_CATALOG/);
    const catalog = { remotes: { mfe_x: { manifest: 'https://cdn.example.com/x/mf-manifest.json', routes: [] } } };
    expect(readGatewayConfig({ ...base, REMOTES_CATALOG: JSON.stringify(catalog) }).web.catalog).toEqual(catalog);
  });

  it('serves REMOTES_CATALOG as /remotes.json when it is given, the remotes’ files still under /remotes/<key>/', async () => {
    const logger = createLogger('remotes-test', 'silent');
    const catalog = { remotes: { mfe_x: { manifest: 'https://cdn.example.com/x/mf-manifest.json', routes: [] } } };
    const gateway = createApp({
      config: testGatewayConfig({ usersUrl: 'http://127.0.0.1:9', todosUrl: 'http://127.0.0.1:9' }),
      sessionStore: SqliteSessionStore.open(data.dir),
      logger,
      web: { catalog, remotes: RemoteFolders.open({ list: { auth: path.join(data.dir, 'mfe-auth/dist') }, logger }) },
    });
    const other = await listen(gateway.app);
    try {
      const answer = await fetch(`${other.url}/remotes.json`);
      expect([answer.status, answer.headers.get('cache-control')]).toEqual([200, 'no-cache']);
      expect(await answer.json()).toEqual(catalog);
      expect((await fetch(`${other.url}/remotes/auth/mf-manifest.json`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('fails the start on a missing or bad REMOTES_FILE, saying what is wrong', () => {
    const logger = createLogger('remotes-test', 'silent');
    expect(() => RemoteFolders.open({ file: path.join(data.dir, 'nope.json'), logger })).toThrow(/REMOTES_FILE .*nope\.json cannot be read/);
    write(path.join(data.dir, 'bad.json'), '["auth"]');
    expect(() => RemoteFolders.open({ file: path.join(data.dir, 'bad.json'), logger })).toThrow(/REMOTES_FILE .*bad\.json must be a JSON object/);
  });
});
