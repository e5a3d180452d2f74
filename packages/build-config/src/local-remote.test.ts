import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `node packages/build-config/local-remote.mjs` serves a team's remote on its machine for a shell
// that allows local remotes (docs/ADDING_A_REMOTE.md "Trying your remote against the real shell"). The
// browser side is e2e/src/remote-override.e2e.test.ts; here, what the command serves, over real HTTP.

const ROOT = path.resolve(__dirname, '../../..');
const SCRIPT = path.join(ROOT, 'packages/build-config/local-remote.mjs');

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts the command and waits for the line that says where it serves (and, with `until`, for that text too). */
function start(args: string[], until?: RegExp, timeoutMs = 60_000): Promise<Started> {
  const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`local-remote did not start:\n${output}`));
    }, timeoutMs);
    const check = () => {
      const url = /serving .* at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1];
      if (url && (!until || until.test(output))) {
        clearTimeout(timer);
        resolve({ child, url, output: () => output });
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      check();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      check();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`local-remote exited (${code}):\n${output}`));
    });
  });
}

function stop({ child }: Started): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('local-remote.mjs', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'tm-local-remote-'));
    mkdirSync(path.join(work, 'build/assets'), { recursive: true });
    writeFileSync(path.join(work, 'build/mf-manifest.json'), '{"name":"mfe_x"}');
    writeFileSync(path.join(work, 'build/assets/page.0123456789.js'), 'export {}');
    writeFileSync(path.join(work, 'secret.txt'), 'not served');
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('--serve: a build folder on 127.0.0.1, CORS open, nothing cached, nothing outside it', async () => {
    const server = await start(['--serve', path.join(work, 'build'), '--port', '0']);
    try {
      expect(server.output()).toContain(`?remote-override=<key>=${server.url}/`);
      const manifest = await fetch(`${server.url}/mf-manifest.json`, { headers: { Origin: 'http://localhost:8080' } });
      expect(manifest.status).toBe(200);
      expect(manifest.headers.get('access-control-allow-origin')).toBe('*');
      expect(manifest.headers.get('cache-control')).toBe('no-cache');
      expect(manifest.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await manifest.json()).toEqual({ name: 'mfe_x' });
      const script = await fetch(`${server.url}/assets/page.0123456789.js`);
      expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
      for (const outside of ['/nope.json', '/../secret.txt', '/..%2fsecret.txt', '/assets/', '/%2e%2e/secret.txt']) {
        expect([outside, (await fetch(`${server.url}${outside}`)).status]).toEqual([outside, 404]);
      }
      expect((await fetch(`${server.url}/mf-manifest.json`, { method: 'POST' })).status).toBe(405);
    } finally {
      await stop(server);
    }
  });

  it('refuses what it cannot serve, saying why', async () => {
    await expect(start(['--serve', path.join(work, 'missing')])).rejects.toThrow(/--serve .*missing is not a folder/);
    await expect(start([path.join(work, 'build')])).rejects.toThrow(/name a remote's folder/);
    await expect(start(['--serve', path.join(work, 'build'), '--port', 'x'])).rejects.toThrow(/--port x is not a port/);
  });

  it('builds a remote as it is deployed, into a folder of its own (never its dist/), and serves it', async () => {
    const dist = path.join(ROOT, 'mfe-insights/dist');
    const before = statSync(dist, { throwIfNoEntry: false })?.mtimeMs;
    const server = await start([path.join(ROOT, 'mfe-insights'), '--port', '0'], /compiled successfully/, 90_000);
    try {
      expect(server.output()).toContain(`?remote-override=insights=${server.url}/`);
      const manifest = (await (await fetch(`${server.url}/mf-manifest.json`)).json()) as { name: string; metaData: { buildInfo: { buildId: string } } };
      expect(manifest.name).toBe('mfe_insights');
      // A production build (the shell provides the federation runtime and runs production React), named "local".
      expect(manifest.metaData.buildInfo.buildId).toBe('local');
      expect((await fetch(`${server.url}/remoteEntry.js`)).status).toBe(200);
      expect(statSync(dist, { throwIfNoEntry: false })?.mtimeMs).toBe(before);
    } finally {
      await stop(server);
    }
    // Its build folder goes when it stops.
    const folder = /serving (\S+) at/.exec(server.output())?.[1] ?? '';
    expect(folder.startsWith(tmpdir()) || folder.startsWith(realpathSync(tmpdir()))).toBe(true);
    expect(existsSync(folder)).toBe(false);
  }, 120_000);
});
