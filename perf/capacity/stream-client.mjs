// One client process of perf/capacity/streams.mjs: holds idle live streams (Server-Sent Events) open for it.
// Its own process because every open stream is a file descriptor of the client too, and one process may
// not have enough of them for 20 000 (the open-files limit); streams.mjs forks as many as it needs.
//
// Messages from the parent (IPC): { cmd: 'open', streams: [{ port, path, headers?, identity?, localAddress }],
// atOnce } (`identity`: { userId, secret }, signed here as the gateway signs, just before the stream opens)
// → { opened, failed, refused: { <status or error code>: n } }, once each stream got its `ready` event or
// was refused; { cmd: 'stats' } → { open, closed, pings }; { cmd: 'close' } → every socket destroyed, exit.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { signIdentity } from '@tm/service-kit';

/** @type {{ req: http.ClientRequest, closed: boolean, pings: number }[]} */
const streams = [];

/** Opens one stream; resolves with null once its `ready` event arrived, else with why it did not. */
function open({ port, path, headers = {}, identity, localAddress }) {
  const requestId = randomUUID();
  const signed = identity ? { 'x-request-id': requestId, ...signIdentity(identity.secret, { method: 'GET', url: path, userId: identity.userId, requestId }) } : {};
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, localAddress, agent: false, headers: { ...headers, ...signed, accept: 'text/event-stream' } });
    const stream = { req, closed: false, pings: 0 };
    req.on('error', (error) => {
      stream.closed = true;
      resolve(error.code ?? error.message);
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(String(res.statusCode));
        return;
      }
      streams.push(stream);
      let ready = false;
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        if (!ready && chunk.includes('event: ready')) {
          ready = true;
          resolve(null);
        }
        for (let at = chunk.indexOf(': ping'); at >= 0; at = chunk.indexOf(': ping', at + 1)) stream.pings += 1;
      });
      res.on('close', () => {
        stream.closed = true;
        if (!ready) resolve('closed before ready');
      });
    });
  });
}

process.on('message', async (message) => {
  if (message.cmd === 'open') {
    const refused = {};
    let opened = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: message.atOnce }, async () => {
        while (next < message.streams.length) {
          const why = await open(message.streams[next++]);
          if (why === null) opened += 1;
          else refused[why] = (refused[why] ?? 0) + 1;
        }
      }),
    );
    process.send({ opened, failed: message.streams.length - opened, refused });
  } else if (message.cmd === 'stats') {
    const closed = streams.filter((s) => s.closed).length;
    process.send({ open: streams.length - closed, closed, pings: streams.reduce((sum, s) => sum + s.pings, 0) });
  } else if (message.cmd === 'close') {
    for (const stream of streams) stream.req.destroy();
    process.exit(0);
  }
});
process.send({ ready: true });
