// REMOTE_OVERRIDES (docs/ADDING_A_REMOTE.md "Trying your remote against the real shell"): the
// deployment setting that lets a browser load one remote from a team's machine. What the gateway does with
// it: says so in /remotes.json (what the shell goes by) and allows those origins in its CSP; nothing else.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '@tm/service-kit';
import { listen, type Started, tempDir } from '@tm/test-support';
import { createApp } from './app.js';
import { readGatewayConfig } from './config.js';
import { testGatewayConfig } from './gateway.test-helpers.js';
import { RemoteFolders } from './remote-folders.js';
import { SqliteSessionStore } from './sqlite-session.store.js';
import type { WebSite } from './static.middleware.js';

const base = { NODE_ENV: 'test', SESSION_KEYS: 'k'.repeat(40), INTERNAL_SECRET: 's'.repeat(40) };

describe('the REMOTE_OVERRIDES setting', () => {
  it('is off unless set: unset, empty or off', () => {
    expect(readGatewayConfig(base).web.overrideOrigins).toBeUndefined();
    expect(readGatewayConfig({ ...base, REMOTE_OVERRIDES: '' }).web.overrideOrigins).toBeUndefined();
    expect(readGatewayConfig({ ...base, REMOTE_OVERRIDES: 'off' }).web.overrideOrigins).toBeUndefined();
    expect(readGatewayConfig({ ...base, REMOTE_OVERRIDES: 'OFF' }).web.overrideOrigins).toBeUndefined();
  });

  it('on: this machine only; or a list of origins, on among them for this machine', () => {
    expect(readGatewayConfig({ ...base, REMOTE_OVERRIDES: 'on' }).web.overrideOrigins).toEqual(['http://127.0.0.1:*', 'http://localhost:*']);
    expect(readGatewayConfig({ ...base, REMOTE_OVERRIDES: 'http://127.0.0.1:3101' }).web.overrideOrigins).toEqual(['http://127.0.0.1:3101']);
    expect(readGatewayConfig({ ...base, REMOTE_OVERRIDES: 'on, https://preview.example.com, http://127.0.0.1:*' }).web.overrideOrigins).toEqual([
      'http://127.0.0.1:*',
      'http://localhost:*',
      'https://preview.example.com',
    ]);
  });

  it.each(['yes', 'http://preview.example.com', 'https://*.example.com', 'http://127.0.0.1:3101/mf-manifest.json', 'off,on', '*'])('refuses %j at start, naming the variable', (value) => {
    expect(() => readGatewayConfig({ ...base, REMOTE_OVERRIDES: value })).toThrow(/REMOTE_OVERRIDES/);
  });
});

describe('what the gateway sends with REMOTE_OVERRIDES (real HTTP)', () => {
  let data: ReturnType<typeof tempDir>;
  const servers: Started[] = [];
  const logger = createLogger('remote-overrides-test', 'silent');

  beforeAll(() => {
    data = tempDir('tm-overrides-');
    const write = (file: string, body: string) => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, body);
    };
    write(path.join(data.dir, 'shell/index.html'), '<!doctype html><html><head><script>var a=1</script></head><body></body></html>');
    const routes = [{ path: '/insights', module: './InsightsPage', guard: 'public', title: 'Insights', name: 'insights screen' }];
    write(path.join(data.dir, 'insights/remote.json'), JSON.stringify({ name: 'mfe_insights', version: '0.1.0', buildId: 'b1', routes }));
    write(path.join(data.dir, 'insights/mf-manifest.json'), '{}');
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    data.remove();
  });

  async function start(web: Omit<WebSite, 'shell' | 'remotes'>): Promise<string> {
    const gateway = createApp({
      config: testGatewayConfig({ usersUrl: 'http://127.0.0.1:9', todosUrl: 'http://127.0.0.1:9' }),
      sessionStore: SqliteSessionStore.open(data.dir),
      logger,
      web: { shell: path.join(data.dir, 'shell'), remotes: RemoteFolders.open({ list: { insights: path.join(data.dir, 'insights') }, logger }), ...web },
    });
    const server = await listen(gateway.app);
    servers.push(server);
    return server.url;
  }

  /** The CSP's directives, by name. */
  function directives(csp: string | null): Record<string, string[]> {
    return Object.fromEntries(
      (csp ?? '')
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter(([name]) => name)
        .map(([name = '', ...values]) => [name, values]),
    );
  }

  it('off: no "overrides" in /remotes.json and a policy of this origin alone, even for a catalog given with "overrides"', async () => {
    const url = await start({});
    const catalog = (await (await fetch(`${url}/remotes.json`)).json()) as Record<string, unknown>;
    expect(Object.keys(catalog)).toEqual(['remotes']);
    const policy = directives((await fetch(`${url}/`)).headers.get('content-security-policy'));
    expect(policy['script-src']).toEqual(["'self'", expect.stringMatching(/^'sha256-/)]);
    expect(policy['connect-src']).toEqual(["'self'"]);

    const given = { remotes: { mfe_x: { manifest: '/remotes/x/mf-manifest.json', routes: [] } }, overrides: { origins: ['http://127.0.0.1:*'] } };
    const other = await start({ catalog: given });
    expect(await (await fetch(`${other}/remotes.json`)).json()).toEqual({ remotes: given.remotes });
  });

  it('on: /remotes.json says which origins, and the policy allows exactly those for what a remote loads', async () => {
    const origins = readGatewayConfig({ ...base, REMOTE_OVERRIDES: 'on' }).web.overrideOrigins;
    const url = await start({ overrideOrigins: origins });
    const answer = await fetch(`${url}/remotes.json`);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    const catalog = (await answer.json()) as { remotes: Record<string, unknown>; overrides?: unknown };
    expect(catalog.overrides).toEqual({ origins: ['http://127.0.0.1:*', 'http://localhost:*'] });
    expect(Object.keys(catalog.remotes)).toEqual(['mfe_insights']);

    for (const file of ['/', '/insights', '/remotes.json', '/api/user/me']) {
      const policy = directives((await fetch(`${url}${file}`, { headers: { accept: 'text/html' } })).headers.get('content-security-policy'));
      expect(policy['script-src']).toEqual(["'self'", expect.stringMatching(/^'sha256-/), 'http://127.0.0.1:*', 'http://localhost:*']);
      for (const name of ['style-src', 'img-src', 'font-src']) expect(policy[name]).toEqual(expect.arrayContaining(['http://127.0.0.1:*', 'http://localhost:*']));
      expect(policy['connect-src']).toEqual(["'self'", 'http://127.0.0.1:*', 'http://localhost:*']);
      expect(policy['media-src']).toEqual(["'self'"]);
      // Still nothing else: no other origin, no eval, no inline script but the hashed one.
      expect(policy['default-src']).toEqual(["'self'"]);
      expect(Object.values(policy).flat()).not.toContain("'unsafe-eval'");
      expect(policy['script-src']).not.toContain("'unsafe-inline'");
      expect(policy['object-src']).toEqual(["'none'"]);
    }
  });

  it('a listed origin: that one only', async () => {
    const origins = readGatewayConfig({ ...base, REMOTE_OVERRIDES: 'https://preview.example.com' }).web.overrideOrigins;
    const url = await start({ overrideOrigins: origins });
    expect(((await (await fetch(`${url}/remotes.json`)).json()) as { overrides?: unknown }).overrides).toEqual({ origins: ['https://preview.example.com'] });
    const policy = directives((await fetch(`${url}/`)).headers.get('content-security-policy'));
    expect(policy['script-src']).toEqual(["'self'", expect.stringMatching(/^'sha256-/), 'https://preview.example.com']);
    expect(policy['connect-src']).toEqual(["'self'", 'https://preview.example.com']);
  });
});
