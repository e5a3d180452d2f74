/**
 * Checks of the nginx configurations: the three frontend images (deploy/docker/nginx/) and the compose load
 * balancer (deploy/nginx/lb.conf). Statically: each file is parsed and compared with what the gateway does in
 * all-in-one mode (its cache policy from gateway/src/static.middleware.ts, its helmet headers from
 * gateway/src/security-headers.middleware.ts) and
 * with the routes the browser needs. Live, when an `nginx` binary is installed (Debian: apt-get install -y
 * nginx; skipped with a message otherwise): each config runs in a temporary prefix, with paths and ports
 * rewritten, and is asked real requests, the load balancer in front of stub upstreams.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { freePort } from '@tm/test-support';
import { renderRemotes } from './deployed-remotes';

const repo = path.resolve(__dirname, '../..');
const nginxDir = path.join(repo, 'deploy/docker/nginx');
const lbFile = path.join(repo, 'deploy/nginx/lb.conf');
/** What `pnpm deploy:render` writes for the workspace's remotes (deployed-remotes.ts). */
const rendered = renderRemotes();
afterAll(() => rendered.remove());
/** The catalog file a deployment gives the shell (deploy/generated/remotes-catalog.json; here, its twin). */
const REMOTES_CATALOG_FILE = rendered.catalogFile;
/** The remotes of the catalog: each has its image, all with the one remote.conf. */
const REMOTES = rendered.remotes;
/** The image configs: deploy/docker/nginx/shell.conf and remote.conf (every remote image). */
const IMAGES = ['shell', 'remote'];
type Image = string;

interface Directive {
  name: string;
  args: string[];
  block?: Directive[];
}

/** nginx configuration syntax: words and quoted strings, `;`-terminated directives, `{}` blocks, `#` comments. */
function parseNginx(text: string): Directive[] {
  // Punctuation tokens are single characters; a quoted string is a word even when it looks like `;` or `{`.
  const tokens: { text: string; word: boolean }[] = [];
  for (let i = 0; i < text.length; ) {
    const char = text[i]!;
    if (/\s/.test(char)) i++;
    else if (char === '#') i = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
    else if ('{};'.includes(char)) tokens.push({ text: text[i++]!, word: false });
    else if (char === '"' || char === "'") {
      let end = i + 1;
      while (text[end] !== char) {
        if (end >= text.length) throw new Error('unterminated quoted string');
        end += text[end] === '\\' ? 2 : 1;
      }
      tokens.push({ text: text.slice(i + 1, end), word: true });
      i = end + 1;
    } else {
      let end = i;
      while (end < text.length && !/[\s{};]/.test(text[end]!)) end++;
      tokens.push({ text: text.slice(i, end), word: true });
      i = end;
    }
  }
  let at = 0;
  const is = (punctuation: string) => tokens[at]?.word === false && tokens[at]?.text === punctuation;
  const block = (): Directive[] => {
    const directives: Directive[] = [];
    while (at < tokens.length && !is('}')) {
      const words: string[] = [];
      while (!is('{') && !is(';')) {
        if (at >= tokens.length || is('}')) throw new Error(`unterminated directive ${words.join(' ')}`);
        words.push(tokens[at++]!.text);
      }
      const [name = '', ...args] = words;
      if (is('{')) {
        at++;
        directives.push({ name, args, block: block() });
        if (!is('}')) throw new Error(`unclosed block ${name}`);
        at++;
      } else {
        at++;
        directives.push({ name, args });
      }
    }
    return directives;
  };
  const result = block();
  if (at !== tokens.length) throw new Error('unbalanced }');
  return result;
}

const find = (directives: Directive[], name: string) => directives.filter((directive) => directive.name === name);
const one = (directives: Directive[], name: string): Directive => {
  const found = find(directives, name);
  if (found.length !== 1) throw new Error(`expected one ${name}, found ${found.length}`);
  return found[0]!;
};
/** Every directive of a file, nested ones included. */
const everyDirective = (directives: Directive[]): Directive[] => directives.flatMap((directive) => [directive, ...everyDirective(directive.block ?? [])]);
const confText = (image: Image) => readFileSync(path.join(nginxDir, `${image}.conf`), 'utf8');
const serverOf = (conf: Directive[]) => one(conf, 'server').block!;
const locations = (server: Directive[]) => new Map(find(server, 'location').map((location) => [location.args.join(' '), location.block!]));

/** Evaluates an nginx `map $uri $var { … }` for a path: exact keys first, then regexes in order, else default. */
function mapValue(map: Directive, uri: string): string {
  const entries = map.block!;
  const exact = entries.find((entry) => !entry.name.startsWith('~') && entry.name !== 'default' && entry.name === uri);
  if (exact) return exact.args[0]!;
  for (const entry of entries) {
    if (entry.name.startsWith('~*') && new RegExp(entry.name.slice(2), 'i').test(uri)) return entry.args[0]!;
    if (entry.name.startsWith('~') && !entry.name.startsWith('~*') && new RegExp(entry.name.slice(1)).test(uri)) return entry.args[0]!;
  }
  return find(entries, 'default')[0]?.args[0] ?? '';
}

/** The gateway's cache policy, from its source (NO_CACHE names and the HASHED pattern of static.middleware.ts). */
function gatewayCacheControl(): (uri: string) => string {
  const source = readFileSync(path.join(repo, 'gateway/src/static.middleware.ts'), 'utf8');
  const noCache = JSON.parse(/const NO_CACHE = new Set\((\[[^\]]*\])\)/.exec(source)![1]!.replaceAll("'", '"')) as string[];
  const hashed = new RegExp(/const HASHED = \/(.+)\/;/.exec(source)![1]!);
  return (uri) => {
    const name = path.posix.basename(uri);
    if (noCache.includes(name)) return 'no-cache';
    if (hashed.test(name)) return 'public, max-age=31536000, immutable';
    return 'public, max-age=3600';
  };
}

/** The headers the gateway's helmet middleware sets for a shell build in `shellRoot` (lower-case names). */
async function gatewaySecurityHeaders(shellRoot: string): Promise<Record<string, string>> {
  type Middleware = (ctx: unknown, next: () => Promise<void>) => Promise<void>;
  const { securityHeaders } = (await import(path.join(repo, 'gateway/src/security-headers.middleware.ts'))) as { securityHeaders: (root: string) => Middleware };
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  await securityHeaders(shellRoot)({ req: { headers: {} }, res }, async () => undefined);
  return Object.fromEntries(headers);
}

/** A CSP as a directive → sources map (order and spacing do not matter). */
function cspDirectives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources.sort()]),
  );
}

/** `add_header` directives of a block: name → [value, always?]. */
function addHeaders(block: Directive[]): Map<string, { value: string; always: boolean }> {
  return new Map(find(block, 'add_header').map(({ args }) => [args[0]!.toLowerCase(), { value: args[1]!, always: args[2] === 'always' }]));
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const THEME_SCRIPT = '!function(){var t="light";document.documentElement.setAttribute("data-theme",t)}()';

/**
 * The copies a production build writes beside a text file over 1 KiB (packages/build-config/rspack.config.mjs):
 * `<file>.gz` and `<file>.br`. The .gz copy carries a modification time in its gzip header, where nginx's own
 * gzip always writes 0, so a test comparing bytes tells the copy from on-the-fly compression.
 */
function writeCompressedCopies(file: string): void {
  const content = readFileSync(file);
  const gz = gzipSync(content, { level: 9 });
  gz.writeUInt32LE(1_700_000_000, 4);
  writeFileSync(`${file}.gz`, gz);
  writeFileSync(`${file}.br`, brotliCompressSync(content));
}

/** A Workbox-like service worker over 1 KiB (the build gives it .gz and .br copies). */
const SERVICE_WORKER = `self.__WB_MANIFEST=${JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ url: `/assets/${i}.0123456789.js`, revision: null })))};self.addEventListener("install",()=>self.skipWaiting());`;

/**
 * A small shell build like Rspack's output: index.html with the inline theme script (under 1 KiB: no copies),
 * a hashed asset and the service worker with their .gz/.br copies, a source map.
 */
function writeShellFixture(root: string): void {
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), `<!doctype html><html><head><script>${THEME_SCRIPT}</script><script defer src="/assets/main.1e56ae8713.js"></script></head><body><div id="root"></div></body></html>`);
  writeFileSync(path.join(root, 'assets/main.1e56ae8713.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
  writeFileSync(path.join(root, 'assets/main.1e56ae8713.js.map'), '{}');
  writeFileSync(path.join(root, 'sw.js'), SERVICE_WORKER);
  for (const file of ['assets/main.1e56ae8713.js', 'sw.js']) writeCompressedCopies(path.join(root, file));
}

describe.each(IMAGES)('nginx config of the %s image (static)', (image) => {
  const conf = parseNginx(confText(image));
  const server = serverOf(conf);
  const map = one(conf, 'map');
  const cacheVariable = map.args[1]!;
  const expected = gatewayCacheControl();

  it('serves on 8080 from /usr/share/nginx/html with gzip on', () => {
    expect(one(server, 'listen').args).toEqual(['8080']);
    expect(one(server, 'root').args).toEqual(['/usr/share/nginx/html']);
    expect(one(conf, 'gzip').args).toEqual(['on']);
    expect(one(conf, 'gzip_types').args).toEqual(expect.arrayContaining(['application/javascript', 'text/css', 'application/json', 'image/svg+xml']));
  });

  it('sets Cache-Control from a map over the path, on successful answers only', () => {
    expect(map.args[0]).toBe('$uri');
    expect(addHeaders(server).get('cache-control')).toEqual({ value: cacheVariable, always: false });
    // A location with its own add_header would silently drop every server-level one.
    for (const block of locations(server).values()) expect(find(block, 'add_header')).toEqual([]);
  });

  it('has the gateway cache policy: entry points revalidated, hashed assets immutable, the rest one hour', () => {
    const distFiles = (app: string) => {
      const dir = path.join(repo, app, 'dist/assets');
      return existsSync(dir) ? readdirSync(dir).map((file) => `/remotes/x/assets/${file}`) : [];
    };
    const uris = [
      '/index.html',
      '/remotes.json',
      '/remotes/auth/mf-manifest.json',
      '/remotes/tasks/remoteEntry.js',
      '/assets/main.1e56ae8713.js',
      '/assets/main.1e56ae8713.js.map',
      '/remotes/auth/assets/376.033968770e.css',
      '/remotes/tasks/assets/__federation_expose_TaskListPage.ee380ee598.js',
      '/sounds/added.mp3',
      '/svgs/to-do-list-animate.svg',
      '/remotes/tasks/mf-manifest-stats.json',
      ...distFiles('shell'),
      ...REMOTES.flatMap((remote) => distFiles(remote.service)),
    ];
    for (const uri of uris) expect([uri, mapValue(map, uri)]).toEqual([uri, expected(uri)]);
    expect(mapValue(map, '/index.html')).toBe('no-cache');
    expect(mapValue(map, '/assets/main.1e56ae8713.js')).toBe('public, max-age=31536000, immutable');
    expect(mapValue(map, '/healthz')).toBe('no-store');
  });

  it('answers /healthz itself', () => {
    const health = locations(server).get('= /healthz');
    expect(health?.find((directive) => directive.name === 'return')?.args[0]).toBe('200');
  });

  it('revalidates a service worker (sw.js) on every load, like index.html', () => {
    expect(mapValue(map, '/sw.js')).toBe('no-cache');
    expect(mapValue(map, '/sw.js')).toBe(mapValue(map, '/index.html'));
    // The name, not any script ending in it.
    expect(mapValue(map, '/assets/mysw.js')).toBe('public, max-age=3600');
  });

  it("sends the build's .gz copies, gzips the rest on the fly, and always says the answer varies", () => {
    expect(one(conf, 'gzip_static').args).toEqual(['on']);
    expect(one(conf, 'gzip').args).toEqual(['on']);
    expect(one(conf, 'gzip_vary').args).toEqual(['on']);
    // Requests through the load balancer are compressed too.
    expect(one(conf, 'gzip_proxied').args).toEqual(['any']);
    // Nothing in a location turns it off for some files.
    expect(everyDirective(server).filter((directive) => directive.name.startsWith('gzip'))).toEqual([]);
  });

  it('uses no directive the image cannot load: its nginx has no brotli module', () => {
    expect(everyDirective(conf).filter((directive) => directive.name.startsWith('brotli') || directive.name === 'load_module')).toEqual([]);
  });
});

describe('nginx config of the shell image (static)', () => {
  const server = serverOf(parseNginx(confText('shell')));

  it('sends the gateway headers, Content-Security-Policy included, with the same values', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'tm-shell-headers-'));
    try {
      writeShellFixture(work);
      const gateway = await gatewaySecurityHeaders(work);
      const ours = addHeaders(server);
      ours.delete('cache-control');
      const template = readFileSync(path.join(nginxDir, 'shell-csp.conf.template'), 'utf8');
      const csp = one(parseNginx(template), 'add_header');
      expect(csp.args.slice(0, 1).concat(csp.args.slice(2))).toEqual(['Content-Security-Policy', 'always']);
      const filled = csp.args[1]!.replace('@SCRIPT_HASHES@', sha256(THEME_SCRIPT)).replaceAll('@REMOTE_ORIGINS@', '');
      const { 'content-security-policy': gatewayCsp, ...gatewayOthers } = gateway;
      expect(cspDirectives(filled)).toEqual(cspDirectives(gatewayCsp!));
      expect(Object.fromEntries([...ours].map(([name, { value }]) => [name, value]))).toEqual(gatewayOthers);
      for (const [name, { always }] of ours) expect([name, always]).toEqual([name, true]);
      expect(find(server, 'include').map((include) => include.args[0])).toContain('/tmp/shell-runtime/csp.conf');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('falls back to index.html for client routes only: never for /api, other images, health or files', () => {
    const routes = locations(server);
    expect(routes.get('/')?.find((directive) => directive.name === 'try_files')?.args).toEqual(['$uri', '/index.html']);
    const notSpa = [...routes].filter(([key]) => key.startsWith('~ ')).map(([key, block]) => [new RegExp(key.slice(2)), block] as const);
    for (const uri of ['/api/user/me', '/remotes/auth/mf-manifest.json', '/assets/x.js', '/sounds/a.mp3', '/svgs/a.svg', '/readyz', '/metrics', '/favicon.ico']) {
      const match = notSpa.find(([regex]) => regex.test(uri));
      expect([uri, match?.[1].find((directive) => directive.name === 'try_files')?.args]).toEqual([uri, ['$uri', '=404']]);
    }
    for (const uri of ['/', '/login', '/signup']) expect([uri, notSpa.some(([regex]) => regex.test(uri))]).toEqual([uri, false]);
  });
});

describe('nginx config of the load balancer (static)', () => {
  const lb = parseNginx(readFileSync(lbFile, 'utf8'));
  const server = serverOf(lb);
  const upstreams = new Map(find(lb, 'upstream').map((upstream) => [upstream.args[0]!, upstream.block!]));
  const routes = locations(server);
  const target = (location: string) => routes.get(location)?.find((directive) => directive.name === 'proxy_pass')?.args[0];

  it('routes /api/ to the gateways, every remote by one location, and the rest to the shell', () => {
    expect(target('/api/')).toBe('http://gateway');
    // One location for every remote: /remotes/<key>/ → mfe-<key>:8080, looked up by name at request time.
    const remoteLocation = '~ ^/remotes/(?<key>[a-z][a-z0-9-]*)/';
    expect([...routes.keys()].filter((location) => location.includes('remotes'))).toEqual([remoteLocation]);
    expect(target(remoteLocation)).toBe('http://$remote_upstream');
    const map = one(lb, 'map');
    expect(map.args).toEqual(['$key', '$remote_upstream']);
    // Production names no remote: the default is the whole rule (the live test adds local entries).
    expect(map.block).toEqual([{ name: 'default', args: ['mfe-$key:8080'] }]);
    const pattern = new RegExp(remoteLocation.slice(2).replace('(?<key>', '('));
    for (const remote of REMOTES) {
      const key = pattern.exec(`/remotes/${remote.key}/mf-manifest.json`)?.[1];
      expect([remote.name, key && `mfe-${key}`]).toEqual([remote.name, remote.service]);
    }
    // An unknown remote is a 404, a remote that is down a 502.
    expect(routes.get(remoteLocation)?.filter((directive) => directive.name === 'error_page').map((directive) => directive.args)).toEqual([['502', '=', '@no_remote']]);
    const noRemote = routes.get('@no_remote')!;
    expect(one(noRemote, 'if').args).toEqual(['($upstream_addr', '=', '', ')']);
    // The one remote-specific line: the task list's media at the origin's root.
    const media = routes.get('~ ^/(sounds|svgs)/')!;
    expect(one(media, 'set').args).toEqual(['$key', 'tasks']);
    expect(one(media, 'proxy_pass').args).toEqual(['http://$remote_upstream']);
    expect(REMOTES.map((remote) => remote.key)).toContain('tasks');
    expect(target('/')).toBe('http://shell');
    // proxy_pass without a URI part: the path reaches the image unchanged.
    for (const location of routes.keys()) expect(target(location) ?? 'http://x').toMatch(/^http:\/\/\$?[a-z_]+$/);
  });

  it('re-resolves each name with Docker DNS (replicas and recreated containers are followed)', () => {
    expect(one(lb, 'resolver').args).toEqual(['127.0.0.11', 'valid=10s', 'ipv6=off']);
    expect([...upstreams.keys()].sort()).toEqual(['gateway', 'shell']);
    for (const [name, block] of upstreams) {
      expect([name, find(block, 'zone').length]).toEqual([name, 1]);
      for (const serverLine of find(block, 'server')) expect(serverLine.args).toContain('resolve');
    }
    expect(find(upstreams.get('gateway')!, 'server').map((line) => line.args[0])).toEqual(['gateway:8080']);
  });

  it('retries another gateway on errors, timeouts, 502 and 503, never replaying a non-idempotent request', () => {
    const retry = one(server, 'proxy_next_upstream').args;
    expect(retry).toEqual(expect.arrayContaining(['error', 'timeout', 'http_502', 'http_503']));
    expect(retry).not.toContain('non_idempotent');
    expect(Number(one(server, 'proxy_next_upstream_tries').args[0])).toBeGreaterThanOrEqual(2);
  });

  it('tells the gateway who the client is and how it connected, from what it saw itself', () => {
    const headers = new Map(find(server, 'proxy_set_header').map(({ args }) => [args[0], args[1]]));
    expect(headers.get('X-Forwarded-For')).toBe('$remote_addr');
    expect(headers.get('X-Forwarded-Proto')).toBe('$scheme');
    // With its port: the gateway checks the Origin of writes against it.
    expect(headers.get('Host')).toBe('$http_host');
    // Keep-alive to the upstreams needs HTTP/1.1 and no hop-by-hop Connection header.
    expect(one(server, 'proxy_http_version').args).toEqual(['1.1']);
    expect(headers.get('Connection')).toBe('');
  });

  it('answers its own /healthz on 8080', () => {
    expect(one(server, 'listen').args).toEqual(['8080']);
    expect(routes.get('= /healthz')?.find((directive) => directive.name === 'return')?.args[0]).toBe('200');
  });

  it('never compresses or decodes: Accept-Encoding goes up, Content-Encoding and Vary come down unchanged', () => {
    expect(one(server, 'gzip').args).toEqual(['off']);
    const all = everyDirective(lb);
    // Turned on nowhere, no gunzip (it would decode the gateway's gzip for some clients), no brotli.
    expect(all.filter((directive) => /^(gzip|gunzip|brotli)/.test(directive.name) && directive.args[0] !== 'off')).toEqual([]);
    // No header rule touches the negotiation (an emptied Accept-Encoding would make the gateway send plain JSON).
    const headerRules = all.filter((directive) => /header/.test(directive.name) && directive.args.some((arg) => /^(accept-encoding|content-encoding|vary)$/i.test(arg)));
    expect(headerRules).toEqual([]);
  });

  it('streams the event stream: no buffering and no compression, even if gzip is turned on for the server', () => {
    const events = routes.get('= /api/todo/events')!;
    expect(one(events, 'proxy_pass').args).toEqual(['http://gateway']);
    expect(one(events, 'proxy_buffering').args).toEqual(['off']);
    expect(one(events, 'gzip').args).toEqual(['off']);
    // Longer than the gateway's 15 s heartbeat.
    expect(Number.parseInt(one(events, 'proxy_read_timeout').args[0]!, 10)).toBeGreaterThan(15);
  });
});

describe('the nginx syntax used by these checks', () => {
  it('parses blocks, quotes and comments, and refuses broken files', () => {
    expect(parseNginx('a "b c" d; # x\nm $u $v { default "1"; "~^/x$" 2; }')).toEqual([
      { name: 'a', args: ['b c', 'd'] },
      { name: 'm', args: ['$u', '$v'], block: [{ name: 'default', args: ['1'] }, { name: '~^/x$', args: ['2'] }] },
    ]);
    expect(() => parseNginx('server { listen 80;')).toThrow();
    expect(() => parseNginx('listen 80')).toThrow();
    expect(() => parseNginx('return 200 "ok;')).toThrow();
  });
});

// ---------------------------------------------------------------------------------------------------------
// Live: the configs in a real nginx.

const nginxVersion = (() => {
  const result = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  return result.status === 0 ? /nginx\/(\d+)\.(\d+)\.(\d+)/.exec(result.stderr)?.slice(1).map(Number) : undefined;
})();
const MIME_TYPES = '/etc/nginx/mime.types';
const live = nginxVersion && existsSync(MIME_TYPES);
if (!live) console.warn('nginx (with /etc/nginx/mime.types) not found: the live nginx checks are skipped (Debian: apt-get install -y nginx)');
const describeLive = live ? describe : describe.skip;
/** `resolve` in an upstream `server` is open source from nginx 1.27.3 (the images run 1.27). */
const hasResolve = Boolean(nginxVersion && (nginxVersion[0]! > 1 || (nginxVersion[0] === 1 && (nginxVersion[1]! > 27 || (nginxVersion[1] === 27 && nginxVersion[2]! >= 3)))));

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on ${port}: ${log()}`);
}

/** One nginx in a temporary prefix, running `serverConf` as its conf.d/default.conf, on `port`. */
class LiveNginx {
  readonly prefix = mkdtempSync(path.join(tmpdir(), 'tm-nginx-'));
  port = 0;
  private child: ChildProcess | undefined;

  constructor(private readonly rewrite: (conf: string, prefix: string, port: number) => string, private readonly source: string) {
    // Workers of a root master run as nobody: they must be able to read the prefix.
    chmodSync(this.prefix, 0o755);
  }

  private write(): string {
    const mainConf = path.join(this.prefix, 'nginx.conf');
    mkdirSync(path.join(this.prefix, 'conf.d'), { recursive: true });
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${this.prefix}/${kind}_temp;`).join('\n  ');
    writeFileSync(
      mainConf,
      `worker_processes 1;\nerror_log ${this.prefix}/error.log warn;\npid ${this.prefix}/nginx.pid;\nevents { worker_connections 64; }\n` +
        `http {\n  include ${MIME_TYPES};\n  default_type application/octet-stream;\n  access_log off;\n  ${temp}\n  include ${this.prefix}/conf.d/*.conf;\n}\n`,
    );
    writeFileSync(path.join(this.prefix, 'conf.d/default.conf'), this.rewrite(this.source, this.prefix, this.port));
    return mainConf;
  }

  test(): { status: number | null; output: string } {
    const result = spawnSync('nginx', ['-t', '-p', this.prefix, '-c', this.write()], { encoding: 'utf8' });
    return { status: result.status, output: result.stderr };
  }

  async start(): Promise<void> {
    this.port = await freePort();
    const mainConf = this.write();
    this.child = spawn('nginx', ['-p', this.prefix, '-c', mainConf, '-g', 'daemon off;'], { stdio: 'ignore' });
    await waitForPort(this.port, this.child, () => (existsSync(`${this.prefix}/error.log`) ? readFileSync(`${this.prefix}/error.log`, 'utf8') : ''));
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.prefix, { recursive: true, force: true });
  }

  url(pathname: string): string {
    return `http://127.0.0.1:${this.port}${pathname}`;
  }
}

/** The image paths moved under the prefix, 8080 moved to a free local port. */
function rewriteImageConf(conf: string, prefix: string, port: number): string {
  return conf
    .replaceAll('listen 8080;', `listen 127.0.0.1:${port};`)
    .replaceAll('/usr/share/nginx/html', `${prefix}/html`)
    .replaceAll('/tmp/shell-runtime', `${prefix}/runtime`);
}

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/**
 * A GET with these headers only, its body as it travelled. node:http, not fetch: fetch sends its own
 * Accept-Encoding and decodes the body.
 */
function raw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** What a browser sends: every encoding it reads, brotli included. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

describeLive('shell image nginx, live', () => {
  let nginx: LiveNginx;

  beforeAll(async () => {
    nginx = new LiveNginx(rewriteImageConf, confText('shell'));
    const html = path.join(nginx.prefix, 'html');
    writeShellFixture(html);
    // What the image build and the start-up script produce: the filled CSP include and remotes.json.
    const template = path.join(nginx.prefix, 'csp.conf.template');
    writeFileSync(template, readFileSync(path.join(nginxDir, 'shell-csp.conf.template'), 'utf8').replaceAll('@SCRIPT_HASHES@', sha256(THEME_SCRIPT)));
    const started = spawnSync('sh', [path.join(repo, 'deploy/docker/shell-entrypoint.sh')], {
      env: { PATH: process.env.PATH, SHELL_RUNTIME_DIR: path.join(nginx.prefix, 'runtime'), SHELL_CSP_TEMPLATE: template, REMOTES_CATALOG_FILE },
      encoding: 'utf8',
    });
    expect(started.status).toBe(0);
    for (const dir of ['html', 'html/assets', 'runtime']) chmodSync(path.join(nginx.prefix, dir), 0o755);
    await nginx.start();
  });
  afterAll(() => nginx.stop());

  it('passes nginx -t', () => {
    const { status, output } = nginx.test();
    expect(output).toContain('test is successful');
    expect(status).toBe(0);
  });

  it('serves the page no-cache with the gateway security headers and CSP', async () => {
    const page = await get(nginx.url('/'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const gateway = await gatewaySecurityHeaders(path.join(nginx.prefix, 'html'));
    for (const [name, value] of Object.entries(gateway)) {
      if (name === 'content-security-policy') expect(cspDirectives(page.headers.get(name) ?? '')).toEqual(cspDirectives(value));
      else expect([name, page.headers.get(name)]).toEqual([name, value]);
    }
  });

  it('answers client routes with the page, and unknown files, /api and health paths with 404', async () => {
    const login = await get(nginx.url('/login'), { accept: 'text/html' });
    expect([login.status, login.headers.get('cache-control')]).toEqual([200, 'no-cache']);
    expect(login.body.toString()).toContain(THEME_SCRIPT);
    for (const pathname of ['/api/user/me', '/assets/gone.0123456789.js', '/favicon.ico', '/metrics', '/readyz', '/remotes/auth/mf-manifest.json']) {
      const response = await get(nginx.url(pathname));
      expect([pathname, response.status]).toEqual([pathname, 404]);
      // An error is never cached as an immutable asset.
      expect([pathname, response.headers.get('cache-control')]).toEqual([pathname, null]);
    }
  });

  it("sends a hashed asset's .gz copy as it is to a browser, cached for a year (no brotli: the .br copy is not used)", async () => {
    const file = path.join(nginx.prefix, 'html/assets/main.1e56ae8713.js');
    const asset = await raw(nginx.url('/assets/main.1e56ae8713.js'), { 'accept-encoding': BROWSER_ENCODINGS });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(asset.body.equals(readFileSync(`${file}.gz`))).toBe(true);
    expect(asset.headers['content-length']).toBe(String(readFileSync(`${file}.gz`).length));
    expect(asset.headers.vary).toMatch(/^Accept-Encoding$/i);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/^application\/javascript/);
    expect(gunzipSync(asset.body).equals(readFileSync(file))).toBe(true);
  });

  it('sends the plain file to a client that does not accept gzip, still saying it varies', async () => {
    const file = path.join(nginx.prefix, 'html/assets/main.1e56ae8713.js');
    for (const headers of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const asset = await raw(nginx.url('/assets/main.1e56ae8713.js'), headers);
      expect([headers, asset.status, asset.headers['content-encoding']]).toEqual([headers, 200, undefined]);
      expect([headers, asset.body.equals(readFileSync(file))]).toEqual([headers, true]);
      // A shared cache must not hand this plain answer to everyone, nor a gzip one to this client.
      expect(asset.headers.vary).toMatch(/^Accept-Encoding$/i);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('gzips on the fly a file over 1 KiB that has no copy (an older build, a file that would not gain)', async () => {
    const file = path.join(nginx.prefix, 'html/assets/late.5a6b7c8d9e.css');
    writeFileSync(file, `.late{content:${JSON.stringify('y'.repeat(3000))}}`);
    const asset = await raw(nginx.url('/assets/late.5a6b7c8d9e.css'), { 'accept-encoding': BROWSER_ENCODINGS });
    expect([asset.status, asset.headers['content-encoding'], asset.headers.vary]).toEqual([200, 'gzip', 'Accept-Encoding']);
    expect(gunzipSync(asset.body).equals(readFileSync(file))).toBe(true);
    expect(asset.body.length).toBeLessThan(readFileSync(file).length);
  });

  it('sends the service worker revalidated on every load (no-cache), from its .gz copy', async () => {
    const file = path.join(nginx.prefix, 'html/sw.js');
    const worker = await raw(nginx.url('/sw.js'), { 'accept-encoding': BROWSER_ENCODINGS });
    expect([worker.status, worker.headers['cache-control'], worker.headers['content-encoding']]).toEqual([200, 'no-cache', 'gzip']);
    expect(worker.headers['content-type']).toMatch(/^application\/javascript/);
    expect(worker.body.equals(readFileSync(`${file}.gz`))).toBe(true);
    const plain = await raw(nginx.url('/sw.js'));
    expect([plain.status, plain.headers['cache-control'], plain.body.toString()]).toEqual([200, 'no-cache', SERVICE_WORKER]);
  });

  it('serves the remotes.json written at start, revalidated every time, and its own health', async () => {
    const remotes = await get(nginx.url('/remotes.json'));
    expect(remotes.status).toBe(200);
    expect(remotes.headers.get('cache-control')).toBe('no-cache');
    expect(JSON.parse(remotes.body.toString())).toEqual(JSON.parse(readFileSync(REMOTES_CATALOG_FILE, 'utf8')));
    const health = await get(nginx.url('/healthz'));
    expect([health.status, health.body.toString(), health.headers.get('cache-control')]).toEqual([200, 'ok\n', 'no-store']);
  });
});

describe.each(REMOTES.map((remote) => [remote.service, remote.key] as const))('%s image nginx, live', (image, short) => {
  const liveIt = live ? it : it.skip;
  /** Media at the origin's root: the image has them when the package's build has them (public/ → dist/). */
  const hasMedia = existsSync(path.join(repo, image, 'public/sounds'));
  let nginx: LiveNginx;

  beforeAll(async () => {
    if (!live) return;
    nginx = new LiveNginx(rewriteImageConf, confText('remote'));
    const root = path.join(nginx.prefix, 'html');
    const remote = path.join(root, 'remotes', short);
    mkdirSync(path.join(remote, 'assets'), { recursive: true });
    writeFileSync(path.join(remote, 'mf-manifest.json'), JSON.stringify({ id: `mfe_${short}`, metaData: { publicPath: 'auto' } }));
    writeFileSync(path.join(remote, 'remoteEntry.js'), `var remote = ${JSON.stringify('r'.repeat(3000))};`);
    writeFileSync(path.join(remote, 'assets/910.20ad72e092.js'), 'var chunk = 1;');
    writeFileSync(path.join(remote, 'assets/__federation_expose_Page.3c4d5e6f70.js'), `var page = ${JSON.stringify('p'.repeat(3000))};`);
    for (const file of ['remoteEntry.js', 'assets/__federation_expose_Page.3c4d5e6f70.js']) writeCompressedCopies(path.join(remote, file));
    writeFileSync(path.join(remote, 'index.html'), '<!doctype html><title>standalone</title>');
    for (const [dir, file] of [['sounds', 'added.mp3'], ['svgs', 'to-do-list-animate.svg']] as const) {
      if (!hasMedia) continue;
      mkdirSync(path.join(root, dir), { recursive: true });
      writeFileSync(path.join(root, dir, file), file.endsWith('.svg') ? '<svg xmlns="http://www.w3.org/2000/svg"/>' : 'ID3');
      chmodSync(path.join(root, dir), 0o755);
    }
    for (const dir of ['html', 'html/remotes', `html/remotes/${short}`, `html/remotes/${short}/assets`]) chmodSync(path.join(nginx.prefix, dir), 0o755);
    await nginx.start();
  });
  afterAll(() => (live ? nginx.stop() : undefined));

  liveIt('passes nginx -t', () => {
    const { status, output } = nginx.test();
    expect(output).toContain('test is successful');
    expect(status).toBe(0);
  });

  liveIt('serves its federation files under /remotes/<name>/ with the cache policy, loadable from another origin', async () => {
    const expectations: [string, string][] = [
      [`/remotes/${short}/mf-manifest.json`, 'no-cache'],
      [`/remotes/${short}/remoteEntry.js`, 'no-cache'],
      [`/remotes/${short}/assets/910.20ad72e092.js`, 'public, max-age=31536000, immutable'],
    ];
    for (const [pathname, cacheControl] of expectations) {
      const response = await get(nginx.url(pathname));
      expect([pathname, response.status, response.headers.get('cache-control')]).toEqual([pathname, 200, cacheControl]);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await get(nginx.url(`/remotes/${short}/mf-manifest.json`))).headers.get('content-type')).toMatch(/^application\/json/);
  });

  liveIt("sends the build's .gz copies as they are, with the same cache policy and cross-origin headers", async () => {
    const expectations: [string, string][] = [
      [`/remotes/${short}/remoteEntry.js`, 'no-cache'],
      [`/remotes/${short}/assets/__federation_expose_Page.3c4d5e6f70.js`, 'public, max-age=31536000, immutable'],
    ];
    for (const [pathname, cacheControl] of expectations) {
      const file = path.join(nginx.prefix, 'html', pathname);
      const compressed = await raw(nginx.url(pathname), { 'accept-encoding': BROWSER_ENCODINGS });
      expect([pathname, compressed.status, compressed.headers['content-encoding'], compressed.headers['cache-control']]).toEqual([pathname, 200, 'gzip', cacheControl]);
      expect([pathname, compressed.body.equals(readFileSync(`${file}.gz`))]).toEqual([pathname, true]);
      expect([pathname, compressed.headers.vary, compressed.headers['access-control-allow-origin']]).toEqual([pathname, 'Accept-Encoding', '*']);
      const plain = await raw(nginx.url(pathname));
      expect([pathname, plain.status, plain.headers['content-encoding'], plain.headers['cache-control']]).toEqual([pathname, 200, undefined, cacheControl]);
      expect([pathname, plain.body.equals(readFileSync(file)), plain.headers.vary]).toEqual([pathname, true, 'Accept-Encoding']);
    }
  });

  liveIt('does not serve its standalone page, the other images paths, or anything outside its prefix', async () => {
    const other = REMOTES.find((remote) => remote.key !== short)?.key ?? 'other';
    for (const pathname of [`/remotes/${short}/index.html`, `/remotes/${short}/`, '/', '/index.html', `/remotes/${other}/mf-manifest.json`, '/api/user/me']) {
      expect([pathname, (await get(nginx.url(pathname))).status]).toEqual([pathname, 404]);
    }
    expect((await get(nginx.url('/healthz'))).status).toBe(200);
  });

  liveIt(hasMedia ? 'serves the sounds and the illustration at /sounds/ and /svgs/' : 'has no /sounds/ or /svgs/ (the tasks image serves them)', async () => {
    const sound = await get(nginx.url('/sounds/added.mp3'));
    const svg = await get(nginx.url('/svgs/to-do-list-animate.svg'));
    expect(hasMedia).toBe(short === 'tasks');
    if (hasMedia) {
      expect([sound.status, sound.headers.get('content-type'), sound.headers.get('cache-control')]).toEqual([200, 'audio/mpeg', 'public, max-age=3600']);
      expect([svg.status, svg.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    } else {
      expect([sound.status, svg.status]).toEqual([404, 404]);
    }
  });
});

interface Seen {
  upstream: string;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

describeLive('load balancer nginx, live (stub upstreams)', () => {
  const seen: Seen[] = [];
  const failing = new Map<string, number>();
  /** Answers of every stub for one path (its own status, headers and body), instead of its name. */
  const answers = new Map<string, (res: ServerResponse) => void>();
  const stubs = new Map<string, { server: Server; port: number }>();
  let nginx: LiveNginx;

  /** A local port nothing listens on: a remote that exists but is down. */
  let closedPort = 0;

  /**
   * Each upstream host of lb.conf replaced by local stubs (two for the gateway), `resolve` dropped; each remote
   * of the catalog (and `down`) mapped to its local address, other keys still resolved by name, through a
   * resolver where nothing answers: a remote that does not exist, as in Docker when no service has its name.
   */
  function rewriteLb(conf: string, _prefix: string, port: number): string {
    const address = (name: string) => `127.0.0.1:${stubs.get(name)!.port}`;
    const entries = [...REMOTES.map((remote) => `${remote.key} ${address(remote.service)};`), `down 127.0.0.1:${closedPort};`];
    const rewritten = conf
      .replaceAll('listen 8080;', `listen 127.0.0.1:${port};`)
      .replace('resolver 127.0.0.11 ', `resolver 127.0.0.1:${closedPort} `)
      .replace(/resolver_timeout \w+;/, 'resolver_timeout 1s;')
      .replace('default mfe-$key:8080;', `default mfe-$key:8080; ${entries.join(' ')}`)
      .replace(/server gateway:8080 resolve[^;]*;/, `server ${address('gateway-a')} max_fails=0; server ${address('gateway-b')} max_fails=0;`)
      .replace(/server ([a-z][\w-]*):8080 resolve;/g, (_, host: string) => `server ${address(host)};`);
    expect(rewritten).toContain(entries[0]);
    expect(rewritten).toContain(`resolver 127.0.0.1:${closedPort} `);
    return rewritten;
  }

  beforeAll(async () => {
    for (const name of ['gateway-a', 'gateway-b', 'shell', ...REMOTES.map((remote) => remote.service)]) {
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          seen.push({ upstream: name, method: req.method ?? '', url: req.url ?? '', headers: req.headers });
          res.statusCode = failing.get(name) ?? 200;
          res.setHeader('x-upstream', name);
          const answer = answers.get(req.url ?? '');
          if (answer) answer(res);
          else res.end(name);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      stubs.set(name, { server, port: (server.address() as AddressInfo).port });
    }
    closedPort = await freePort();
    nginx = new LiveNginx(rewriteLb, readFileSync(lbFile, 'utf8'));
    await nginx.start();
  });
  afterAll(async () => {
    await nginx.stop();
    for (const { server } of stubs.values()) await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    seen.length = 0;
    failing.clear();
    answers.clear();
  });

  it('passes nginx -t (with the upstream names pointed at local stubs)', () => {
    const { status, output } = nginx.test();
    expect(output).toContain('test is successful');
    expect(status).toBe(0);
  });

  (hasResolve ? it : it.skip)('passes nginx -t as shipped, `resolve` included (nginx >= 1.27.3)', () => {
    const shipped = new LiveNginx((conf, _prefix, port) => conf.replaceAll('listen 8080;', `listen 127.0.0.1:${port};`), readFileSync(lbFile, 'utf8'));
    try {
      const { status, output } = shipped.test();
      expect(output).toContain('test is successful');
      expect(status).toBe(0);
    } finally {
      rmSync(shipped.prefix, { recursive: true, force: true });
    }
  });

  it('routes every public path to its image with the path unchanged, and answers /healthz itself', async () => {
    const routes: [string, string][] = [
      ['/api/todo/fetch-todo', 'gateway'],
      ...REMOTES.map((remote): [string, string] => [`/remotes/${remote.key}/mf-manifest.json`, remote.service]),
      ['/remotes/tasks/remoteEntry.js', 'mfe-tasks'],
      ['/remotes/tasks/assets/__federation_expose_TaskListPage.ee380ee598.js', 'mfe-tasks'],
      ['/sounds/added.mp3', 'mfe-tasks'],
      ['/svgs/to-do-list-animate.svg', 'mfe-tasks'],
      ['/', 'shell'],
      ['/login', 'shell'],
      ['/assets/main.1e56ae8713.js', 'shell'],
    ];
    for (const [pathname, upstream] of routes) {
      const response = await get(nginx.url(pathname));
      expect([pathname, response.status, response.headers.get('x-upstream')?.replace(/-[ab]$/, '')]).toEqual([pathname, 200, upstream]);
      expect(seen.at(-1)?.url).toBe(pathname);
    }
    const health = await get(nginx.url('/healthz'));
    expect([health.status, health.body.toString(), health.headers.get('x-upstream')]).toEqual([200, 'ok\n', null]);
  });

  it('answers 404 for a remote no service is named after, and 502 for one that is down', async () => {
    for (const pathname of ['/remotes/no-such-remote/mf-manifest.json', '/remotes/nope/x']) {
      const response = await get(nginx.url(pathname));
      expect([pathname, response.status, response.headers.get('x-upstream')]).toEqual([pathname, 404, null]);
    }
    expect((await get(nginx.url('/remotes/down/mf-manifest.json'))).status).toBe(502);
    // Not a remote key: the shell's, like any other path.
    expect((await get(nginx.url('/remotes/Tasks/x'))).headers.get('x-upstream')).toBe('shell');
    expect(seen.map((request) => request.upstream)).toEqual(['shell']);
  });

  it('spreads /api over both gateways and passes the client address it saw, not the one claimed', async () => {
    // node:http, not fetch: fetch does not let a caller choose the Host header.
    const claim = () =>
      new Promise<void>((resolve, reject) => {
        const headers = { 'x-forwarded-for': '203.0.113.9', host: 'tasks.example:8443' };
        request(nginx.url('/api/user/me'), { headers }, (res) => res.resume().on('end', resolve)).on('error', reject).end();
      });
    for (let i = 0; i < 6; i++) await claim();
    expect(new Set(seen.map((request) => request.upstream))).toEqual(new Set(['gateway-a', 'gateway-b']));
    for (const request of seen) {
      expect(request.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(request.headers['x-forwarded-proto']).toBe('http');
      // The port too: the gateway compares Host with the Origin of writes.
      expect(request.headers.host).toBe('tasks.example:8443');
    }
  });

  it('retries a GET on the other gateway when one answers 503', async () => {
    failing.set('gateway-a', 503);
    for (let i = 0; i < 4; i++) {
      const response = await get(nginx.url('/api/todo/fetch-todo'));
      expect([response.status, response.headers.get('x-upstream')]).toEqual([200, 'gateway-b']);
    }
    expect(seen.filter((request) => request.upstream === 'gateway-a').length).toBeGreaterThan(0);
  });

  it('tries a GET at most twice, and never plays a POST twice', async () => {
    failing.set('gateway-a', 503);
    failing.set('gateway-b', 503);
    expect((await get(nginx.url('/api/todo/fetch-todo'))).status).toBe(503);
    expect(seen.length).toBe(2);
    seen.length = 0;
    const post = await fetch(nginx.url('/api/todo/add-todo'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' });
    expect(post.status).toBe(503);
    expect(seen.map((request) => request.method)).toEqual(['POST']);
  });

  it("passes compressed answers through as they are: the gateway's brotli or gzip JSON, the shell's .gz copy", async () => {
    const json = Buffer.from(JSON.stringify({ todos: Array.from({ length: 100 }, (_, id) => ({ id, title: `task ${id}`, done: false })) }));
    const cases: [string, string, Buffer, string][] = [
      ['/api/todo/fetch-todo', 'br', brotliCompressSync(json), 'application/json; charset=utf-8'],
      ['/api/todo/fetch-todo', 'gzip', gzipSync(json), 'application/json; charset=utf-8'],
      ['/assets/main.1e56ae8713.js', 'gzip', gzipSync(`console.log(${JSON.stringify('x'.repeat(4000))});`), 'application/javascript'],
    ];
    for (const [pathname, encoding, body, type] of cases) {
      answers.set(pathname, (res) => {
        res.writeHead(200, { 'content-type': type, 'content-encoding': encoding, 'content-length': body.length, vary: 'Origin, Accept-Encoding' });
        res.end(body);
      });
      const response = await raw(nginx.url(pathname), { 'accept-encoding': BROWSER_ENCODINGS });
      const label = `${pathname} ${encoding}`;
      expect([label, response.status, response.headers['content-encoding'], response.headers.vary]).toEqual([label, 200, encoding, 'Origin, Accept-Encoding']);
      expect([label, response.body.equals(body)]).toEqual([label, true]);
      // The upstream chose the encoding from what the browser accepts.
      expect([label, seen.at(-1)?.headers['accept-encoding']]).toEqual([label, BROWSER_ENCODINGS]);
    }
  });

  it('leaves plain what the gateway sent plain (its JSON under 1 KiB), to a client that accepts gzip', async () => {
    const body = JSON.stringify({ id: 1, title: 'x'.repeat(600) });
    answers.set('/api/user/me', (res) => {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(body);
    });
    const response = await raw(nginx.url('/api/user/me'), { 'accept-encoding': BROWSER_ENCODINGS });
    expect([response.status, response.headers['content-encoding'], response.body.toString()]).toEqual([200, undefined, body]);
    expect(response.headers.vary).toBeUndefined();
  });

  it('streams /api/todo/events uncompressed to a client that accepts gzip, each event as the gateway writes it', async () => {
    const first = `retry: 3000\n\nid: 1\nevent: todo\ndata: ${JSON.stringify({ title: 'x'.repeat(2000) })}\n\n`;
    const second = `id: 2\nevent: todo\ndata: ${JSON.stringify({ title: 'y'.repeat(2000) })}\n\n`;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    // Not `X-Accel-Buffering: no`, which the gateway also sends: lb.conf alone must keep the stream flowing.
    answers.set('/api/todo/events', (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(first);
      void released.then(() => res.end(second));
    });
    let response: IncomingMessage | undefined;
    try {
      response = await new Promise<IncomingMessage>((resolve, reject) => {
        request(nginx.url('/api/todo/events'), { headers: { accept: 'text/event-stream', 'accept-encoding': BROWSER_ENCODINGS } }, resolve)
          .on('error', reject)
          .end();
      });
      expect([response.statusCode, response.headers['content-type'], response.headers['content-encoding']]).toEqual([200, 'text/event-stream', undefined]);
      const received: Buffer[] = [];
      response.on('data', (chunk: Buffer) => received.push(chunk));
      const text = () => Buffer.concat(received).toString('latin1');
      // The first event arrives while the gateway still holds the stream open, byte for byte.
      for (let waited = 0; text().length < first.length && waited < 3000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(text()).toBe(first);
      const ended = once(response, 'end');
      release();
      await ended;
      expect(text()).toBe(first + second);
    } finally {
      release();
      response?.destroy();
    }
  });
});
