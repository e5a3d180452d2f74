#!/usr/bin/env node
// A baseline server for `pnpm bench`, run as its own process like the services: answers each request with
// bytes held in memory — svc-todos's real answers for the bench user, read once from a file and picked by
// the `x-bench-answer` request header, else the one named `default` — and does nothing else.
//   node perf/lib/baseline-server.mjs <koa|node> <answers.json>
// Sends `{ port }` to its parent over IPC once it listens on 127.0.0.1; stops on SIGTERM.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import Koa from 'koa';

const [kind, answersFile] = process.argv.slice(2);
/** @type {Map<string, { status: number, body: Buffer }>} */
const answers = new Map(
  Object.entries(JSON.parse(readFileSync(answersFile, 'utf8'))).map(([name, a]) => [name, { status: a.status, body: Buffer.from(a.body) }]),
);
const missing = { status: 404, body: Buffer.from('{"message":"no such bench answer"}') };
/** @param {string | string[] | undefined} name */
const answerFor = (name) => answers.get(String(name)) ?? answers.get('default') ?? missing;

/** The bare floor: node:http, no framework, one write. */
function nodeServer() {
  return http.createServer((req, res) => {
    const { status, body } = answerFor(req.headers['x-bench-answer']);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
}

/** A minimal Koa app: the framework the services are built on, with nothing else in the way. */
function koaServer() {
  const app = new Koa();
  app.use((ctx) => {
    const { status, body } = answerFor(ctx.get('x-bench-answer'));
    ctx.status = status;
    ctx.type = 'application/json';
    ctx.body = body;
  });
  return http.createServer(app.callback());
}

const server = kind === 'koa' ? koaServer() : kind === 'node' ? nodeServer() : undefined;
if (!server) {
  console.error(`unknown baseline kind: ${kind} (koa or node)`);
  process.exit(2);
}
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
