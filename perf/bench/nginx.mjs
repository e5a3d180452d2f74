// Debian's nginx as a reverse proxy in front of one svc-todos, for the bench's "nginx" target: the cost of
// a proxy hop done by a C server, beside the gateway's. Its config is generated into a temp dir and it runs
// in the foreground as a child of the bench, on a free 127.0.0.1 port; the client sets the signed identity.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@tm/test-support';
import { ensureDebianProgram } from '../lib/debian-package.mjs';

/**
 * The nginx binary; installs Debian's package when it is missing and we are root.
 * @returns {{ binary: string } | { skipped: string }}
 */
export function findNginx() {
  return ensureDebianProgram('nginx', '/usr/sbin/nginx', 'nginx');
}

/** How this nginx runs (given with -g): in the foreground, one worker like each Node process it is compared with. */
const runAs = (/** @type {string} */ dir) => `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;`;

/**
 * Keep-alive on both sides, large answers buffered in memory (no temp files), no access log.
 * @param {string} dir @param {number} port @param {number} upstreamPort
 */
function config(dir, port, upstreamPort) {
  return `events { worker_connections 1024; }
http {
  access_log off;
${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/${kind};`).join('\n')}
  keepalive_requests 1000000;
  upstream todos {
    server 127.0.0.1:${upstreamPort};
    keepalive 128;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://todos;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffer_size 16k;
      proxy_buffers 256 16k;
      proxy_max_temp_file_size 0;
    }
  }
}
`;
}

/**
 * Starts nginx proxying every path to `upstreamPort`.
 * @param {string} binary @param {string} dir @param {number} upstreamPort
 * @returns {Promise<{ url: string, pid: number, stop: () => Promise<void> }>}
 */
export async function startNginxProxy(binary, dir, upstreamPort) {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(file, config(dir, port, upstreamPort));
  const args = ['-p', dir, '-c', file, '-g', runAs(dir)];
  execFileSync(binary, ['-t', '-q', ...args], { stdio: 'inherit' });
  const child = spawn(binary, args, { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50 && !(await fetch(`${url}/healthz`).then(() => true, () => false)); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: /** @type {number} */ (child.pid),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGQUIT');
      await once(child, 'exit');
    },
  };
}
