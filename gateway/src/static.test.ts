import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
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
  // A build's precompressed copies: the copies say which one was sent.
  const app = `console.log(${JSON.stringify('the shell '.repeat(200))})`;
  write(path.join(shell, 'assets/app.abcdef0123.js'), app);
  writeFileSync(path.join(shell, 'assets/app.abcdef0123.js.br'), brotliCompressSync(app));
  writeFileSync(path.join(shell, 'assets/app.abcdef0123.js.gz'), gzipSync(app));
  write(path.join(shell, 'sw.js'), 'self.addEventListener("fetch", () => {})');
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

/** The bytes as sent (fetch would decode them), each answer on a connection of its own (no pooled socket). */
function raw(urlPath: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(server.url + urlPath, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('built files sent compressed', () => {
  const file = () => path.join(data.dir, 'shell/assets/app.abcdef0123.js');

  it('sends the brotli copy to a browser that takes brotli, the gzip copy to one that takes gzip, the file to others', async () => {
    const br = await raw('/assets/app.abcdef0123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body).toEqual(readFileSync(`${file()}.br`));
    expect(brotliDecompressSync(br.body).toString()).toBe(readFileSync(file(), 'utf8'));
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const gzip = await raw('/assets/app.abcdef0123.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(readFileSync(file(), 'utf8'));

    const plain = await raw('/assets/app.abcdef0123.js', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(readFileSync(file(), 'utf8'));
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
  });

  it('answers a revalidation of an unchanged file with 304 and no body, by its ETag', async () => {
    const first = await raw('/sw.js', { 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers.etag).toMatch(/^W\/"/);
    const again = await raw('/sw.js', { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('sends a file again when an older one is put back (a rollback), though it was "not modified since"', async () => {
    const worker = path.join(data.dir, 'shell/sw.js');
    const first = await raw('/sw.js', {});
    // A rollback: the file of an earlier build, with an earlier time.
    writeFileSync(worker, 'self.addEventListener("install", () => {})');
    utimesSync(worker, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    const after = await raw('/sw.js', { 'if-none-match': String(first.headers.etag), 'if-modified-since': new Date().toUTCString() });
    expect(after.status).toBe(200);
    expect(after.body.toString()).toBe('self.addEventListener("install", () => {})');
    expect(after.headers['last-modified']).toBeUndefined();
  });

  it('answers a missing file with a file extension with 404, never with the page', async () => {
    const response = await get('/favicon.ico', 'text/html,*/*');
    expect(response.status).toBe(404);
  });
});

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

describe('security headers on every answer (SECURITY.md "Headers")', () => {
  const ANSWERS: [string, string, number][] = [
    ['the page', '/', 200],
    ['a client route', '/insights', 200],
    ['a built file', '/assets/main.0123456789.js', 200],
    ['a remote\'s file', '/remotes/auth/mf-manifest.json', 200],
    ['the catalog', '/remotes.json', 200],
    ['the health check', '/healthz', 200],
    ['a missing file', '/nope.js', 404],
    ['an API answer', '/api/user/me', 401],
    ['an unknown API path', '/api/nope', 404],
  ];

  it.each(ANSWERS)('%s (%s) carries them all, framing denied the same way twice', async (_what, urlPath, status) => {
    const response = await get(urlPath, 'text/html,*/*');
    expect(response.status).toBe(status);
    const headers = response.headers;
    // Framing: CSP frame-ancestors 'none' and X-Frame-Options: DENY say the same thing.
    expect(headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
    const policy = headers.get('permissions-policy') ?? '';
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid', 'midi', 'display-capture']) {
      expect(policy).toContain(`${feature}=()`);
    }
    // Every feature listed is denied outright: nothing is allowed, not even to this origin.
    expect(policy.split(', ').every((entry) => /^[a-z-]+=\(\)$/.test(entry))).toBe(true);
  });
});

describe('404s: a file that is not there gets the JSON error body, a navigation the app\'s page', () => {
  const MISSING_FILES = [
    '/nope.js',
    '/assets/missing.css',
    '/favicon.ico',
    '/assets/',
    '/assets',
    '/remotes/',
    '/remotes/auth/',
    '/remotes/auth/assets/',
    '/remotes/auth/nope.js',
    '/remotes/nope/mf-manifest.json',
    '/remotes/auth',
    '/sounds/nope.mp3',
    '/svgs/',
  ];

  it.each(MISSING_FILES)('%s, even asked for as a page, is a 404 with {message, code}', async (urlPath) => {
    for (const accept of ['text/html', '*/*', 'application/json']) {
      const response = await get(urlPath, accept);
      expect({ urlPath, accept, status: response.status }).toEqual({ urlPath, accept, status: 404 });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ message: `No route for GET ${urlPath}`, code: 'ROUTE.NOT_FOUND' });
    }
    const head = await fetch(server.url + urlPath, { method: 'HEAD', headers: { accept: 'text/html' } });
    expect(head.status).toBe(404);
  });

  it('under /api it is the same body', async () => {
    const response = await get('/api/nope', 'application/json');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'No route for GET /api/nope', code: 'ROUTE.NOT_FOUND' });
  });

  it('a navigation (no file extension, a page asked for) to any other path gets the app\'s page, as a client route', async () => {
    for (const route of ['/nowhere', '/insights/2024', '/tasks/today']) {
      const response = await get(route, 'text/html,application/xhtml+xml,*/*;q=0.8');
      expect({ route, status: response.status }).toEqual({ route, status: 200 });
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain('shell');
    }
  });
});

/**
 * docs/DEPLOY.md's cache table (it named `mf-stats.json`, a file no build writes, while the build's
 * `mf-manifest-stats.json` was cached for an hour): the file names of its first row, in backticks.
 */
function documentedNoCache(): string[] {
  const deploy = readFileSync(path.join(__dirname, '../../docs/DEPLOY.md'), 'utf8');
  const row = deploy.split('\n').find((line) => line.startsWith('| `index.html`') && line.includes('`no-cache`'));
  if (!row) throw new Error('docs/DEPLOY.md has no cache table row for the files revalidated on every load');
  const files = row.split('|')[1] ?? '';
  return [...files.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

describe("docs/DEPLOY.md's cache table and what is served", () => {
  const ROOT = path.join(__dirname, '../..');

  it('sends no-cache for every file the table names as revalidated, and the other policies for the rest', async () => {
    const names = documentedNoCache();
    expect(names).toEqual(expect.arrayContaining(['index.html', 'sw.js', 'remotes.json', 'mf-manifest.json', 'remoteEntry.js']));
    for (const name of names.filter((file) => file !== 'remotes.json')) {
      write(path.join(data.dir, 'auth', 'table', name), '{}');
      const response = await get(`/remotes/auth/table/${name}`, '*/*');
      expect([name, response.status, response.headers.get('cache-control')]).toEqual([name, 200, 'no-cache']);
    }
    write(path.join(data.dir, 'auth', 'table', 'chunk.0123abcd.js'), 'export {}');
    expect((await get('/remotes/auth/table/chunk.0123abcd.js', '*/*')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    write(path.join(data.dir, 'auth', 'table', 'favicon.svg'), '<svg/>');
    expect((await get('/remotes/auth/table/favicon.svg', '*/*')).headers.get('cache-control')).toBe('public, max-age=3600');
  });

  // A build writes these at the top of its dist/ (pnpm build runs before the tests in `npm test`).
  const builds = ['shell', ...readdirSync(ROOT).filter((folder) => /^mfe-[a-z0-9-]+$/.test(folder))].filter((app) => existsSync(path.join(ROOT, app, 'dist')));
  const entryFiles = (app: string) => readdirSync(path.join(ROOT, app, 'dist')).filter((file) => /\.(html|js|json)$/.test(file));

  it('names in the table every entry file a build writes at the top of its dist/ (html, js, json)', () => {
    if (builds.length === 0) {
      console.warn('no build found (run pnpm build): only the table itself was checked');
      return;
    }
    const documented = new Set(documentedNoCache());
    for (const app of builds) expect([app, entryFiles(app).filter((file) => !documented.has(file))]).toEqual([app, []]);
  });
});

