#!/usr/bin/env node
// A team's remote on its own machine, for a shell that allows local remotes (docs/ADDING_A_REMOTE.md
// "Trying your remote against the real shell"):
//
//   node packages/build-config/local-remote.mjs mfe-insights [--port 3101]
//       builds the remote as it is deployed (production mode), again on every save, into a folder of the
//       system's temp dir (never its dist/, which `npm start` and the tests serve), and serves that folder
//       on http://127.0.0.1:<port>/ with CORS open and nothing cached;
//   node packages/build-config/local-remote.mjs --serve <folder> [--port 3101]
//       serves a build made elsewhere (a remote outside this repository) the same way.
//
// Why not the remote's dev server (`pnpm --filter <remote> dev`): a development build uses React's
// development JSX runtime and `eval` source maps, and the shell runs production React under a CSP without
// 'unsafe-eval': such a remote cannot run in the real shell. A production build is what the shell loads anyway.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.mp3': 'audio/mpeg',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Serves `root` on 127.0.0.1 only (nobody else's browser can reach it): GET and HEAD of files under it,
 * `Access-Control-Allow-Origin: *` (the shell fetches the manifest with CORS) and `Cache-Control: no-cache`
 * (a rebuild is seen at the next page load). Anything else, or outside `root`, is a 404.
 * @param {string} root @param {number} port @returns {Promise<import('node:http').Server>}
 */
export function serveFolder(root, port) {
  const server = createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Cache-Control', 'no-cache');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    let file;
    try {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://local').pathname);
      file = path.join(root, path.normalize(pathname));
      if (!file.startsWith(root + path.sep) || !statSync(file).isFile()) throw new Error('not a file');
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const body = readFileSync(file);
    response.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Content-Length': body.length });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** The Rspack CLI the remote's `pnpm build` runs (its package exports no path to it: found in node_modules). @param {string} dir */
function rspackCli(dir) {
  for (let at = dir; ; at = path.dirname(at)) {
    const cli = path.join(at, 'node_modules/@rspack/cli/bin/rspack.js');
    if (existsSync(cli)) return cli;
    if (path.dirname(at) === at) return undefined;
  }
}

function fail(message) {
  process.stderr.write(`local-remote: ${message}\n`);
  process.exit(2);
}

async function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { port: { type: 'string', default: '3101' }, serve: { type: 'string' } } });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port ${values.port} is not a port`);
  let root;
  let remote;
  let build;
  if (values.serve) {
    if (!existsSync(values.serve) || !statSync(values.serve).isDirectory()) fail(`--serve ${values.serve} is not a folder`);
    root = realpathSync(values.serve);
  } else {
    const dir = positionals[0] ? path.resolve(positionals[0]) : undefined;
    if (!dir || !existsSync(path.join(dir, 'rspack.config.mjs'))) fail('name a remote\'s folder (node packages/build-config/local-remote.mjs mfe-insights), or --serve <folder>');
    remote = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name;
    root = realpathSync(mkdtempSync(path.join(tmpdir(), `${remote}-local-`)));
    const rspack = rspackCli(dir);
    if (!rspack) fail(`no @rspack/cli in the node_modules of ${dir} or above: install the remote's dependencies first`);
    // BUILD_ID "local": the About dialog says which build the page runs.
    build = spawn(process.execPath, [rspack, 'build', '--mode', 'production', '--watch', '--output-path', root], {
      cwd: dir,
      stdio: 'inherit',
      env: { ...process.env, BUILD_ID: process.env.BUILD_ID || 'local' },
    });
    build.on('exit', (code) => fail(`the build stopped (${code})`));
  }
  const server = await serveFolder(root, port).catch((error) => fail(`cannot listen on 127.0.0.1:${port}: ${error.message}`));
  const url = `http://127.0.0.1:${server.address().port}`;
  const key = remote?.replace(/^mfe-/, '') ?? '<key>';
  process.stdout.write(
    `local-remote: serving ${root} at ${url}/ (manifest ${url}/mf-manifest.json)\n` +
      `local-remote: open the shell with ?remote-override=${key}=${url}/ (its deployment needs REMOTE_OVERRIDES=on); Ctrl-C stops\n`,
  );
  const stop = () => {
    build?.removeAllListeners('exit');
    build?.kill('SIGTERM');
    server.close();
    // The build's own folder goes with it; a folder given with --serve is the caller's.
    if (build) rmSync(root, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(new URL(import.meta.url).pathname)) await main();
