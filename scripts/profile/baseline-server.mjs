// The yardsticks of scripts/profile/server-path.mjs, one per process: BASELINE=http is a bare node:http
// server answering the bytes of BASELINE_BODY; BASELINE=koa a minimal Koa app answering the same JSON (an
// object in memory that Koa serialises on every request, as a service would). Logs `listening` as our
// processes do, and stops on SIGTERM.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const body = JSON.parse(process.env.BASELINE_BODY ?? '{}');
const bytes = Buffer.from(JSON.stringify(body));
let server;
if (process.env.BASELINE === 'koa') {
  const require = createRequire(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/service-kit/package.json'));
  const Koa = require('koa');
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = body;
  });
  server = app.listen(0, '127.0.0.1');
} else {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
    res.end(bytes);
  }).listen(0, '127.0.0.1');
}
server.on('listening', () => console.log(JSON.stringify({ msg: 'listening', port: server.address().port })));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
