import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '@tm/service-kit';
import { listen, type Started, tempDir } from '@tm/test-support';
import { createApp } from './app.js';
import { RemoteFolders } from './remote-folders.js';
import { SqliteSessionStore } from './sqlite-session.store.js';
import { testGatewayConfig } from './gateway.test-helpers.js';

const THEME_SCRIPT = "document.documentElement.setAttribute('data-theme','light')";
let data: ReturnType<typeof tempDir>;
let server: Started;

function write(file: string, body: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body);
}

beforeAll(async () => {
  data = tempDir('tm-static-');
  const shell = path.join(data.dir, 'shell');
  const auth = path.join(data.dir, 'auth');
  const tasks = path.join(data.dir, 'tasks');
  write(path.join(shell, 'index.html'), `<!doctype html><html><head><script>${THEME_SCRIPT}</script></head><body>shell</body></html>`);
  write(path.join(shell, 'remotes.json'), '{}');
  write(path.join(shell, 'assets/main.0123456789.js'), 'console.log(1)');
  write(path.join(auth, 'mf-manifest.json'), '{"name":"mfe_auth"}');
  write(path.join(auth, 'assets/page.abcdef0123.js'), 'export {}');
  write(path.join(tasks, 'sounds/added.mp3'), 'ID3');
  write(path.join(tasks, 'svgs/to-do-list-animate.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const logger = createLogger('static-test');
  const gateway = createApp({
    config: testGatewayConfig({ usersUrl: 'http://127.0.0.1:9', todosUrl: 'http://127.0.0.1:9' }, { upstreamTimeoutMs: 1000 }),
    sessionStore: SqliteSessionStore.open(data.dir),
    logger,
    web: { shell, remotes: RemoteFolders.open({ list: { auth, tasks }, logger }) },
  });
  server = await listen(gateway.app);
});
afterAll(async () => {
  await server.close();
  data.remove();
});

const get = (urlPath: string, accept = 'text/html') => fetch(server.url + urlPath, { headers: { accept } });

describe('the frontends served by the gateway (all-in-one mode)', () => {
  it('serves the shell at / and falls back to it for client routes, never caching it', async () => {
    for (const route of ['/', '/login', '/signup', '/anything/else']) {
      const response = await get(route);
      expect({ route, status: response.status }).toEqual({ route, status: 200 });
      expect(await response.text()).toContain('shell');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and revalidates manifests', async () => {
    const asset = await get('/assets/main.0123456789.js', '*/*');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const manifest = await get('/remotes/auth/mf-manifest.json', 'application/json');
    expect(await manifest.json()).toEqual({ name: 'mfe_auth' });
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect((await get('/remotes.json', 'application/json')).headers.get('cache-control')).toBe('no-cache');
    expect((await get('/remotes/auth/assets/page.abcdef0123.js', '*/*')).status).toBe(200);
  });

  it('serves the task sounds and illustration at their exact paths', async () => {
    const sound = await get('/sounds/added.mp3', '*/*');
    expect(sound.status).toBe(200);
    expect(sound.headers.get('content-type')).toBe('audio/mpeg');
    const svg = await get('/svgs/to-do-list-animate.svg', '*/*');
    expect(svg.headers.get('content-type')).toMatch(/image\/svg\+xml/);
  });

  it('answers a missing asset with 404 instead of the SPA page, and refuses path traversal', async () => {
    for (const missing of ['/assets/nope.js', '/remotes/tasks/remoteEntry.js', '/sounds/nope.mp3']) {
      const response = await get(missing);
      expect({ missing, status: response.status }).toEqual({ missing, status: 404 });
    }
    write(path.join(data.dir, 'secret.txt'), 'top secret');
    for (const attack of ['/remotes/auth/..%2F..%2Fsecret.txt', '/sounds/..%2F..%2F..%2Fsecret.txt', '/..%2Fsecret.txt']) {
      const response = await get(attack, '*/*');
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(await response.text()).not.toContain('top secret');
    }
  });

  it('sends a Content-Security-Policy allowing only this origin and the hashed theme script', async () => {
    const csp = (await get('/')).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect((await get('/')).headers.get('x-content-type-options')).toBe('nosniff');
  });
});
