/**
 * Checks of the image recipes in deploy/docker/ without a container engine (none runs on the project's
 * machines): each Dockerfile is parsed and held to the rules every image follows (multi-stage, pinned bases,
 * non-root, health check, the right port, sources that exist and are in the build context), and the pieces
 * that run inside an image are run here for real: the health probe of the Node images, the CSP hash step of
 * the shell build and the shell's start-up script.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { renderRemotes } from './deployed-remotes';

const repo = path.resolve(__dirname, '../..');
const dockerDir = path.join(repo, 'deploy/docker');

const NODE_IMAGES = { gateway: 8080, 'svc-users': 4001, 'svc-todos': 4002 } as const;
/** The variable each process listens on: PORT is the app's public port (the gateway's) only. */
const PORT_VARIABLE = { gateway: 'PORT', 'svc-users': 'USERS_PORT', 'svc-todos': 'TODOS_PORT' } as const;
/** What `pnpm deploy:render` writes for the workspace's remotes (deployed-remotes.ts): the catalog and its remotes. */
const rendered = renderRemotes();
afterAll(() => rendered.remove());
/** The catalog file a deployment gives the shell (deploy/generated/remotes-catalog.json; here, its twin). */
const REMOTES_CATALOG_FILE = rendered.catalogFile;
/** Every remote of the catalog. */
const REMOTES = rendered.remotes;
/** The Dockerfiles (deploy/docker/<name>.Dockerfile): one per app, and remote.Dockerfile for every remote. */
const ALL_IMAGES = [...Object.keys(NODE_IMAGES), 'shell', 'remote'];
/** The nginx images as built: the shell, and remote.Dockerfile with each remote of the catalog as REMOTE. */
const WEB_BUILDS = [{ image: 'shell', dockerfile: 'shell', remote: undefined }, ...REMOTES.map((remote) => ({ image: remote.service, dockerfile: 'remote', remote }))];

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  image: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** Instructions of a Dockerfile: comments dropped, `\` continuations joined. */
function instructions(text: string): Instruction[] {
  const result: Instruction[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (!pending && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    const space = full.search(/\s/);
    result.push({ keyword: full.slice(0, space).toUpperCase(), args: full.slice(space + 1).trim() });
  }
  if (pending) throw new Error('Dockerfile ends inside a line continuation');
  return result;
}

function stages(text: string): Stage[] {
  const result: Stage[] = [];
  for (const instruction of instructions(text)) {
    if (instruction.keyword === 'FROM') {
      const words = instruction.args.split(/\s+/).filter((word) => !word.startsWith('--'));
      result.push({ image: words[0]!, name: /^as$/i.test(words[1] ?? '') ? words[2] : undefined, instructions: [] });
    } else {
      if (result.length === 0) throw new Error(`${instruction.keyword} before the first FROM`);
      result.at(-1)!.instructions.push(instruction);
    }
  }
  return result;
}

function dockerfile(name: string): { text: string; stages: Stage[] } {
  const text = readFileSync(path.join(dockerDir, `${name}.Dockerfile`), 'utf8');
  return { text, stages: stages(text) };
}

const all = (stage: Stage, keyword: string) => stage.instructions.filter((instruction) => instruction.keyword === keyword);
const last = (stage: Stage, keyword: string) => all(stage, keyword).at(-1)?.args;

/** `--flag=value` options and the remaining words of a COPY. */
function copyParts(args: string): { flags: Record<string, string>; sources: string[]; destination: string } {
  const words = args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/);
  const flags: Record<string, string> = {};
  while (words[0]?.startsWith('--')) {
    const [flag = '', value = ''] = words.shift()!.slice(2).split('=');
    flags[flag] = value;
  }
  return { flags, sources: words.slice(0, -1), destination: words.at(-1)! };
}

/** ENV instructions of a stage as a map (`KEY=value` pairs, several per instruction). */
function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of all(stage, 'ENV')) {
    for (const [, key, value] of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)) env[key!] = value!.replace(/^"|"$/g, '');
  }
  return env;
}

/** .dockerignore semantics (Go filepath.Match per segment, `**` any depth, `!` re-includes, last match wins). */
function dockerIgnore(text: string): (file: string) => boolean {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negate = line.startsWith('!');
      const pattern = path.posix.normalize(negate ? line.slice(1) : line).replace(/^\//, '');
      const source = pattern
        .split('/')
        .map((part) => (part === '**' ? '.*' : part.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')))
        .join('/')
        .replace(/\.\*\//g, '(.*/)?');
      return { negate, regex: new RegExp(`^${source}(/.*)?$`) };
    });
  return (file) => rules.reduce((ignored, rule) => (rule.regex.test(file) ? !rule.negate : ignored), false);
}

const ignored = dockerIgnore(readFileSync(path.join(repo, '.dockerignore'), 'utf8'));

describe('.dockerignore', () => {
  it('keeps installed, built and local files out of the build context', () => {
    for (const file of ['node_modules/x/index.js', 'shell/node_modules/react/index.js', 'gateway/dist/server.js', 'packages/contracts/dist/index.js', '.data/users.sqlite', 'svc-users/.data/x', '.git/HEAD', 'deploy/.env', 'deploy/k8s/kustomization.yaml', 'gateway/dist/.tsbuildinfo']) {
      expect([file, ignored(file)]).toEqual([file, true]);
    }
  });

  it('keeps what the builds read: lockfile, workspace manifests, sources, image recipes', () => {
    const workspace = (parse(readFileSync(path.join(repo, 'pnpm-workspace.yaml'), 'utf8')) as { packages: string[] }).packages;
    const dirs = workspace.flatMap((entry) => {
      if (!entry.endsWith('/*')) return [entry];
      const parent = entry.slice(0, -2);
      return readdirSync(path.join(repo, parent)).map((dir) => `${parent}/${dir}`);
    });
    expect(dirs.length).toBeGreaterThan(10);
    const needed = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc', 'tsconfig.base.json', 'gateway/src/server.ts', 'mfe-tasks/public/sounds/added.mp3', 'deploy/docker/shell.Dockerfile', 'deploy/docker/remote.Dockerfile', 'deploy/docker/nginx/shell.conf', 'deploy/docker/nginx/remote.conf'];
    for (const file of [...needed, ...dirs.map((dir) => `${dir}/package.json`)]) {
      expect([file, ignored(file)]).toEqual([file, false]);
    }
  });
});

describe.each(ALL_IMAGES)('%s.Dockerfile', (name) => {
  const { text, stages: parsed } = dockerfile(name);
  const final = parsed.at(-1)!;
  const stageNames = parsed.map((stage) => stage.name);

  it('enables the BuildKit syntax its COPY options need', () => {
    expect(text.split('\n')[0]).toBe('# syntax=docker/dockerfile:1');
  });

  it('is multi-stage, from pinned base images (no latest, no untagged)', () => {
    expect(parsed.length).toBeGreaterThanOrEqual(2);
    for (const [index, stage] of parsed.entries()) {
      if (stageNames.slice(0, index).includes(stage.image)) continue;
      expect(stage.image).toMatch(/^[a-z0-9./-]+:[A-Za-z0-9._-]+$/);
      expect(stage.image).not.toMatch(/:latest$/);
      expect(stage.image).not.toContain('$');
    }
  });

  it('runs as a numeric non-root user in the final stage', () => {
    const user = last(final, 'USER');
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(Number.parseInt(user!, 10)).toBeGreaterThan(0);
    // Nothing after the last USER switches back to root.
    const afterUser = final.instructions.slice(final.instructions.findLastIndex((instruction) => instruction.keyword === 'USER'));
    expect(afterUser.filter((instruction) => instruction.keyword === 'RUN')).toEqual([]);
  });

  it('has a health check in the final stage', () => {
    expect(last(final, 'HEALTHCHECK')).toMatch(/CMD \[.*\/healthz/);
  });

  it('copies only files that exist and are in the build context, from stages that exist', () => {
    for (const [index, stage] of parsed.entries()) {
      for (const { args } of all(stage, 'COPY')) {
        const { flags, sources } = copyParts(args);
        if (flags.from !== undefined) {
          expect(stageNames.slice(0, index)).toContain(flags.from);
          continue;
        }
        for (const source of sources) {
          if (source === '.') continue;
          expect([source, existsSync(path.join(repo, source)), ignored(source)]).toEqual([source, true, false]);
        }
      }
    }
  });
});

describe.each(Object.entries(NODE_IMAGES))('%s image (Node)', (name, port) => {
  const { stages: parsed } = dockerfile(name);
  const [build, final] = [parsed[0]!, parsed.at(-1)!];
  const runs = all(build, 'RUN').map((instruction) => instruction.args);

  it('builds with the pnpm of package.json, from the lockfile, only this app, deployed with production deps', () => {
    const { packageManager } = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { packageManager: string };
    expect(runs).toContain(`npm install -g ${packageManager}`);
    expect(runs.some((run) => /^pnpm install .*--frozen-lockfile/.test(run))).toBe(true);
    expect(runs).toContain(`pnpm exec tsc -b ${name}`);
    expect(runs.some((run) => run.startsWith(`pnpm --filter ${name} deploy --prod`))).toBe(true);
    // better-sqlite3 may have to compile when no prebuilt binary downloads.
    expect(runs.some((run) => /apt-get install .*python3.*make.*g\+\+/.test(run))).toBe(true);
  });

  const portVariable = PORT_VARIABLE[name as keyof typeof PORT_VARIABLE];

  it('runs the compiled server on Node 24 (the current LTS) slim, production mode, on all interfaces, exposing its port', () => {
    expect(parsed.map((stage) => stage.image)).toEqual(['node:24-bookworm-slim', 'node:24-bookworm-slim']);
    const env = envOf(final);
    expect(env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', [portVariable]: String(port), SHUTDOWN_DRAIN_MS: '5000' });
    // The gateway also exposes its ops port (/readyz, /metrics), which no Service or Ingress publishes.
    expect(last(final, 'EXPOSE')).toBe(name === 'gateway' ? `${port} 9181` : String(port));
    if (name === 'gateway') expect(env.OPS_PORT).toBe('9181');
    expect(last(final, 'STOPSIGNAL')).toBe('SIGTERM');
    expect(JSON.parse(last(final, 'CMD')!)).toEqual(['node', 'dist/server.js']);
    expect(last(final, 'WORKDIR')).toBe('/app');
    const copied = all(final, 'COPY').map(({ args }) => copyParts(args));
    expect(copied.map((copy) => [copy.flags.from, copy.sources, copy.destination])).toEqual([
      ['build', ['/out/package.json'], './package.json'],
      ['build', ['/out/node_modules'], './node_modules'],
      ['build', ['/out/dist'], './dist'],
    ]);
  });

  describe('health probe', () => {
    const probe = JSON.parse(last(final, 'HEALTHCHECK')!.replace(/^.*?CMD /, '')) as string[];
    let server: Server;
    let status = 200;

    beforeAll(async () => {
      server = createServer((req, res) => {
        res.statusCode = req.url === '/healthz' ? status : 404;
        res.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())));

    // Asynchronous: the probe talks to a server in this very process.
    const run = (env: Record<string, string>) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(probe[0]!, probe.slice(1), { env: { PATH: process.env.PATH, ...env }, stdio: 'ignore', timeout: 10_000 });
        child.on('error', reject);
        child.on('exit', (code) => resolve(code));
      });

    it(`answers 0 when /healthz is OK on its port variable (default ${port}), 1 when it is not or nothing listens`, async () => {
      expect(probe.slice(0, 2)).toEqual(['node', '-e']);
      expect(probe[2]).toContain(`process.env.${portVariable}||${port}`);
      const { port: live } = server.address() as AddressInfo;
      status = 200;
      expect(await run({ [portVariable]: String(live) })).toBe(0);
      status = 503;
      expect(await run({ [portVariable]: String(live) })).toBe(1);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      expect(await run({ [portVariable]: String(live) })).toBe(1);
    });
  });
});

describe.each(WEB_BUILDS)('$image image (nginx)', ({ image, dockerfile: file, remote }) => {
  const { stages: parsed } = dockerfile(file);
  const [build, final] = [parsed[0]!, parsed.at(-1)!];
  const runs = all(build, 'RUN').map((instruction) => instruction.args);
  const copies = all(final, 'COPY').map(({ args }) => copyParts(args));

  it('builds only this frontend with Rspack, from the lockfile, with the pnpm of package.json', () => {
    const { packageManager } = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { packageManager: string };
    expect(runs).toContain(`npm install -g ${packageManager}`);
    expect(runs.some((run) => /^pnpm install .*--frozen-lockfile/.test(run))).toBe(true);
    if (remote) {
      // The package comes from the build argument, declared after the steps every remote shares.
      expect(all(build, 'ARG').map((instruction) => instruction.args)).toEqual(['REMOTE=mfe-tasks']);
      const argAt = build.instructions.findIndex((instruction) => instruction.keyword === 'ARG');
      expect(build.instructions.findIndex((instruction) => instruction.args.startsWith('pnpm install'))).toBeLessThan(argAt);
      expect(runs).toContain('pnpm --filter ${REMOTE} run build');
      expect(existsSync(path.join(remote.dir, 'package.json'))).toBe(true);
    } else {
      expect(runs).toContain(`pnpm --filter ${image} run build`);
    }
  });

  it('serves from unprivileged nginx on 8080 with its own config, probed at /healthz', () => {
    expect(final.image).toBe('nginxinc/nginx-unprivileged:1.27-alpine');
    const config = copies.find((copy) => copy.destination === '/etc/nginx/conf.d/default.conf');
    // Every remote shares one config: nothing in it names a remote.
    expect(config?.sources).toEqual([`deploy/docker/nginx/${file}.conf`]);
    const conf = readFileSync(path.join(repo, config!.sources[0]!), 'utf8');
    const listen = /^\s*listen\s+(\d+);/m.exec(conf)?.[1];
    expect(listen).toBe('8080');
    expect(last(final, 'EXPOSE')).toBe(listen);
    expect(JSON.parse(last(final, 'HEALTHCHECK')!.replace(/^.*?CMD /, ''))).toEqual(['wget', '-qO-', `http://127.0.0.1:${listen}/healthz`]);
    expect(conf).toMatch(/location = \/healthz \{[^}]*return 200/);
    expect(last(final, 'USER')).toBe('101');
    expect(conf).toContain('root /usr/share/nginx/html;');
  });

  it('puts the built files where its nginx config serves them', () => {
    const fromBuild = copies.filter((copy) => copy.flags.from === 'build');
    if (!remote) {
      const dist = fromBuild.filter((copy) => copy.sources[0] === `/repo/${image}/dist/`);
      expect(dist.map((copy) => copy.destination)).toEqual(['/usr/share/nginx/html/']);
      return;
    }
    // The build stage stages this remote's files alone in /srv/html; the final stage copies that and nothing else.
    expect(fromBuild.map((copy) => [copy.sources, copy.destination])).toEqual([[['/srv/html/'], '/usr/share/nginx/html/']]);
  });
});

describe('remote.Dockerfile staging step (run in a temporary directory for each remote, and for a new one)', () => {
  const { stages: parsed } = dockerfile('remote');
  const stageStep = all(parsed[0]!, 'RUN').find((instruction) => instruction.args.includes('/srv/html'))!.args;
  let work: string;

  beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), 'tm-remote-image-'));
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  /** A fake workspace with built remotes (mf-manifest.json, an asset, media for those that have them). */
  function stage(remote: string, packages: Record<string, string[]>): { status: number | null; stderr: string; files: string[] } {
    for (const [name, media] of Object.entries(packages)) {
      mkdirSync(path.join(work, 'repo', name, 'dist/assets'), { recursive: true });
      writeFileSync(path.join(work, 'repo', name, 'dist/mf-manifest.json'), `{"id":"${name}"}`);
      writeFileSync(path.join(work, 'repo', name, 'dist/assets/main.0123456789.js'), name);
      for (const dir of media) {
        mkdirSync(path.join(work, 'repo', name, 'dist', dir), { recursive: true });
        writeFileSync(path.join(work, 'repo', name, 'dist', dir, 'a.bin'), dir);
      }
    }
    const out = path.join(work, 'out');
    const result = spawnSync('sh', ['-c', stageStep.replaceAll('/srv/html', out)], { cwd: path.join(work, 'repo'), env: { PATH: process.env.PATH, REMOTE: remote }, encoding: 'utf8' });
    const list = (dir: string): string[] =>
      existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? list(path.join(dir, entry.name)) : [path.relative(out, path.join(dir, entry.name))])) : [];
    return { status: result.status, stderr: result.stderr, files: list(out).sort() };
  }

  it.each([...REMOTES.map((remote) => remote.service), 'mfe-stats'])('stages only %s, under /remotes/<key>/', (name) => {
    const key = name.replace(/^mfe-/, '');
    const { status, files } = stage(name, { [name]: [], 'mfe-other': ['sounds'] });
    expect(status).toBe(0);
    expect(files).toEqual([`remotes/${key}/assets/main.0123456789.js`, `remotes/${key}/mf-manifest.json`]);
  });

  it('also serves the media of a remote that has them (/sounds/, /svgs/: the task list) at the root', () => {
    const { status, files } = stage('mfe-tasks', { 'mfe-tasks': ['sounds', 'svgs'] });
    expect(status).toBe(0);
    expect(files).toEqual(expect.arrayContaining(['sounds/a.bin', 'svgs/a.bin', 'remotes/tasks/sounds/a.bin']));
    const taskConstants = readFileSync(path.join(repo, 'mfe-tasks/src/features/todos/constants.ts'), 'utf8');
    expect(taskConstants).toMatch(/'\/sounds\/added\.mp3'/);
    expect(taskConstants).toMatch(/'\/svgs\/to-do-list-animate\.svg'/);
    expect(existsSync(path.join(repo, 'mfe-tasks/public/sounds/added.mp3'))).toBe(true);
  });

  it('refuses a package that is not a remote, or one that did not build', () => {
    for (const name of ['shell', 'gateway', 'mfe-']) expect([name, stage(name, { [name]: [] }).status]).toEqual([name, 1]);
    expect(stage('mfe-missing', {}).status).not.toBe(0);
  });
});

describe('shell image: Content-Security-Policy and remotes.json', () => {
  const { stages: parsed } = dockerfile('shell');
  const [build, final] = [parsed[0]!, parsed.at(-1)!];
  const hashStep = all(build, 'RUN').find((instruction) => instruction.args.startsWith('["node"'));
  let work: string;

  beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), 'tm-shell-image-'));
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

  /** Runs the build's hash step in `work` on the given index.html; returns the filled template. */
  function runHashStep(indexHtml: string): string {
    const argv = JSON.parse(hashStep!.args) as string[];
    mkdirSync(path.join(work, 'shell/dist'), { recursive: true });
    mkdirSync(path.join(work, 'deploy/docker/nginx'), { recursive: true });
    writeFileSync(path.join(work, 'shell/dist/index.html'), indexHtml);
    writeFileSync(path.join(work, 'deploy/docker/nginx/shell-csp.conf.template'), readFileSync(path.join(dockerDir, 'nginx/shell-csp.conf.template')));
    const result = spawnSync(argv[0]!, argv.slice(1), { cwd: work, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return readFileSync(path.join(work, 'shell-csp.conf.template'), 'utf8');
  }

  it('hashes every inline script of the built index.html into the policy', () => {
    expect(hashStep).toBeDefined();
    const first = '!function(){document.documentElement.dataset.theme="dark"}()';
    const filled = runHashStep(`<html><head><script>${first}</script><script>var b=1</script><script defer src="/assets/main.0123456789.js"></script></head></html>`);
    expect(filled).toContain(`script-src 'self' ${sha256(first)} ${sha256('var b=1')} @REMOTE_ORIGINS@;`);
    expect(filled).not.toContain('@SCRIPT_HASHES@');
  });

  it('gives the hash the gateway computes for the real build, when it is built', async () => {
    const built = path.join(repo, 'shell/dist/index.html');
    if (!existsSync(built)) {
      console.warn('shell/dist not built: skipping the comparison with the gateway (pnpm build)');
      return;
    }
    const { inlineScriptHashes } = (await import(path.join(repo, 'gateway/src/security-headers.middleware.ts'))) as { inlineScriptHashes: (root: string) => string[] };
    const hashes = inlineScriptHashes(path.join(repo, 'shell/dist'));
    expect(hashes.length).toBeGreaterThan(0);
    expect(runHashStep(readFileSync(built, 'utf8'))).toContain(`script-src 'self' ${hashes.join(' ')} @REMOTE_ORIGINS@;`);
  });

  it('copies the filled template where the start-up script reads it, and the script where nginx runs it', () => {
    const copies = all(final, 'COPY').map(({ args }) => copyParts(args));
    const script = readFileSync(path.join(dockerDir, 'shell-entrypoint.sh'), 'utf8');
    const templatePath = /SHELL_CSP_TEMPLATE:-([^}]+)\}/.exec(script)?.[1];
    expect(copies).toContainEqual({ flags: { from: 'build' }, sources: ['/repo/shell-csp.conf.template'], destination: templatePath });
    expect(copies).toContainEqual({ flags: { chmod: '0755' }, sources: ['deploy/docker/shell-entrypoint.sh'], destination: expect.stringMatching(/^\/docker-entrypoint\.d\/\d+-[\w-]+\.sh$/) });
    expect(() => accessSync(path.join(dockerDir, 'shell-entrypoint.sh'), constants.X_OK)).not.toThrow();
    // remotes.json comes from the environment at start, never from the build.
    expect(all(build, 'RUN').map((instruction) => instruction.args)).toContain('rm -f shell/dist/remotes.json');
    // No catalog is baked in: the deployment gives it (REMOTES_CATALOG or REMOTES_CATALOG_FILE).
    expect(envOf(final)).toEqual({});
    const conf = readFileSync(path.join(dockerDir, 'nginx/shell.conf'), 'utf8');
    const runtimeDir = /SHELL_RUNTIME_DIR:-([^}]+)\}/.exec(script)?.[1];
    expect(conf).toContain(`include ${runtimeDir}/csp.conf;`);
    expect(conf).toMatch(new RegExp(`location = /remotes\\.json \\{\\s*root ${runtimeDir};`));
  });

  describe('start-up script', () => {
    function start(env: Record<string, string>) {
      const template = path.join(work, 'csp.conf.template');
      writeFileSync(template, 'add_header Content-Security-Policy "script-src \'self\' \'sha256-x\' @REMOTE_ORIGINS@; connect-src \'self\' @REMOTE_ORIGINS@" always;\n');
      const result = spawnSync('sh', [path.join(dockerDir, 'shell-entrypoint.sh')], {
        env: { PATH: process.env.PATH, SHELL_RUNTIME_DIR: path.join(work, 'runtime'), SHELL_CSP_TEMPLATE: template, ...env },
        encoding: 'utf8',
      });
      const read = (file: string) => readFileSync(path.join(work, 'runtime', file), 'utf8');
      return { status: result.status, stderr: result.stderr, read };
    }

    const catalogText = readFileSync(REMOTES_CATALOG_FILE, 'utf8');
    const cdnCatalog = {
      remotes: {
        mfe_auth: { manifest: 'https://cdn.example.com/auth/v42/mf-manifest.json', routes: [] },
        mfe_tasks: { manifest: 'https://cdn.example.com/tasks/v7/mf-manifest.json', routes: [] },
        mfe_stats: { manifest: '/remotes/stats/mf-manifest.json', routes: [] },
      },
    };

    it('writes the catalog of REMOTES_CATALOG_FILE as remotes.json, with a same-origin policy', () => {
      const { status, read } = start({ REMOTES_CATALOG_FILE });
      expect(status).toBe(0);
      expect(JSON.parse(read('remotes.json'))).toEqual(JSON.parse(catalogText));
      expect(read('csp.conf')).toBe('add_header Content-Security-Policy "script-src \'self\' \'sha256-x\' ; connect-src \'self\' " always;\n');
    });

    it('takes REMOTES_CATALOG over the file, any number of remotes, and allows the origins of those elsewhere, once each', () => {
      const { status, read } = start({ REMOTES_CATALOG: JSON.stringify(cdnCatalog, null, 2), REMOTES_CATALOG_FILE });
      expect(status).toBe(0);
      expect(JSON.parse(read('remotes.json'))).toEqual(cdnCatalog);
      expect(read('csp.conf')).toContain("script-src 'self' 'sha256-x' https://cdn.example.com;");
      expect(read('csp.conf')).toContain("connect-src 'self' https://cdn.example.com\"");
    });

    it('does not start without a catalog', () => {
      const { status, stderr } = start({});
      expect(status).not.toBe(0);
      expect(stderr).toContain('REMOTES_CATALOG');
      expect(start({ REMOTES_CATALOG_FILE: path.join(work, 'nope.json') }).stderr).toContain('cannot be read');
    });

    it.each(['javascript:alert(1)', '/x"y', '//evil.example/mf-manifest.json', 'https://cdn.example.com/a b', "https://cdn.example.com/';", 'ftp://cdn.example.com/m.json'])(
      'refuses a manifest %j (the container does not start)',
      (url) => {
        const { status, stderr } = start({ REMOTES_CATALOG: JSON.stringify({ remotes: { ...cdnCatalog.remotes, mfe_tasks: { manifest: url, routes: [] } } }) });
        expect(status).not.toBe(0);
        expect(stderr).toContain('REMOTES_CATALOG');
      },
    );

    describe('REMOTE_OVERRIDES (a local remote against the deployed shell)', () => {
      /** The real template, its script hashes filled as the image build fills them. */
      function startWithRealTemplate(env: Record<string, string>) {
        const template = path.join(work, 'real-csp.conf.template');
        writeFileSync(template, readFileSync(path.join(dockerDir, 'nginx/shell-csp.conf.template'), 'utf8').replace('@SCRIPT_HASHES@', "'sha256-x'"));
        const result = spawnSync('sh', [path.join(dockerDir, 'shell-entrypoint.sh')], {
          env: { PATH: process.env.PATH, SHELL_RUNTIME_DIR: path.join(work, 'runtime-overrides'), SHELL_CSP_TEMPLATE: template, ...env },
          encoding: 'utf8',
        });
        const read = (file: string) => readFileSync(path.join(work, 'runtime-overrides', file), 'utf8');
        const directives = () =>
          Object.fromEntries(
            /"([^"]*)"/
              .exec(read('csp.conf'))![1]!
              .split(';')
              .map((part) => part.trim().split(/\s+/))
              .map(([name = '', ...values]) => [name, values]),
          ) as Record<string, string[]>;
        return { status: result.status, stderr: result.stderr, read, directives };
      }

      it('off (unset or "off"): the catalog as it is, and no other origin in the policy', () => {
        for (const setting of [{}, { REMOTE_OVERRIDES: 'off' }] as Record<string, string>[]) {
          const { status, read, directives } = startWithRealTemplate({ REMOTES_CATALOG_FILE, ...setting });
          expect(status).toBe(0);
          expect(JSON.parse(read('remotes.json'))).toEqual(JSON.parse(catalogText));
          expect(directives()['script-src']).toEqual(["'self'", "'sha256-x'"]);
          expect(directives()['connect-src']).toEqual(["'self'"]);
        }
      });

      it('on, or a list: "overrides" in remotes.json with the origins the shell checks, and the policy allowing them', async () => {
        // The contracts' own functions, from source (this project does not reference the package).
        const { checkRemoteCatalog } = (await import(path.join(repo, 'packages/contracts/src/remote-catalog.ts'))) as { checkRemoteCatalog: (value: unknown) => unknown };
        const { checkOverrideOrigins } = (await import(path.join(repo, 'packages/contracts/src/remote-overrides.ts'))) as { checkOverrideOrigins: (value: unknown) => unknown };
        const { status, read, directives } = startWithRealTemplate({ REMOTES_CATALOG_FILE, REMOTE_OVERRIDES: 'on, https://preview.example.com' });
        expect(status).toBe(0);
        const origins = ['http://127.0.0.1:*', 'http://localhost:*', 'https://preview.example.com'];
        const written = JSON.parse(read('remotes.json')) as { overrides?: unknown };
        expect(written).toEqual({ ...JSON.parse(catalogText), overrides: { origins } });
        // What the shell checks it with, and what the gateway would write for the same setting.
        expect(checkRemoteCatalog(written)).toEqual({ ok: true, catalog: expect.objectContaining({ overrides: { origins } }) });
        expect(checkOverrideOrigins(origins)).toEqual({ ok: true, origins });
        const policy = directives();
        expect(policy['script-src']).toEqual(["'self'", "'sha256-x'", ...origins]);
        for (const name of ['style-src', 'img-src', 'font-src']) expect(policy[name]).toEqual(expect.arrayContaining(origins));
        expect(policy['connect-src']).toEqual(["'self'", ...origins]);
        expect(policy['media-src']).toEqual(["'self'"]);
      });

      it.each(['yes', 'http://preview.example.com', 'https://*.example.com', 'http://127.0.0.1:3101/mf-manifest.json', 'http://127.0.0.1:0'])('refuses REMOTE_OVERRIDES=%j (the container does not start)', (setting) => {
        const { status, stderr } = startWithRealTemplate({ REMOTES_CATALOG_FILE, REMOTE_OVERRIDES: setting });
        expect(status).not.toBe(0);
        expect(stderr).toContain('REMOTE_OVERRIDES');
      });

      it('refuses a catalog that says "overrides" itself: only the setting turns them on', () => {
        const { status, stderr } = startWithRealTemplate({ REMOTES_CATALOG: JSON.stringify({ ...cdnCatalog, overrides: { origins: ['https://evil.example'] } }) });
        expect(status).not.toBe(0);
        expect(stderr).toContain('must not say "overrides"');
      });
    });

    it.each(['', '[]', 'not json', '{"remotes": []}', '{"remotes": {"mfe_x": {"manifest": 5}}}', '{"remotes": {}}'])('refuses the catalog %j', (catalog) => {
      const { status, stderr } = start({ REMOTES_CATALOG: catalog, REMOTES_CATALOG_FILE: '/nonexistent' });
      expect(status).not.toBe(0);
      expect(stderr).toMatch(/REMOTES_CATALOG/);
    });
  });
});
