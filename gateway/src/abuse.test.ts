import { once } from 'node:events';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient, type RunningServices, type RunningStack, signUp, startServices, startStack, upstreamsOf } from '@tm/test-support';
import { CLIENT_REQUEST_LIMITS, CONNECTIONS_PER_ADDRESS } from './config.js';
import { startGateway, type TestGateway } from './gateway.test-helpers.js';

/**
 * Abuse of the gateway from outside, reproduced on 127.0.0.1 (SECURITY.md "Limits and timeouts"): what a
 * client's headers may do, and a client that holds sockets without finishing its requests.
 */

/** Forwards every request to `target` as it is, keeping the headers each one arrived with (what a service sees). */
async function recordingRelay(target: string): Promise<{ url: string; seen: IncomingHttpHeaders[]; close: () => Promise<void> }> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    const outgoing = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    outgoing.on('error', () => res.destroy());
    req.pipe(outgoing);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("a client's headers", () => {
  let services: RunningServices;
  let relay: Awaited<ReturnType<typeof recordingRelay>>;
  let gateway: TestGateway;
  beforeAll(async () => {
    services = await startServices();
    relay = await recordingRelay(services.users.url);
    gateway = await startGateway({ ...upstreamsOf(services), usersUrl: relay.url }, { trustProxy: true });
  });
  afterAll(async () => {
    await gateway.close();
    await relay.close();
    await services.stop();
  });

  it('reach a service only from an allow-list: no Authorization, Forwarded, X-Forwarded-For or anything else of the client', async () => {
    const { client } = await signUp(gateway.url, { name: 'Header Sender' });
    relay.seen.length = 0;
    const me = await client.get('/api/user/me', {
      headers: {
        authorization: 'Bearer stolen',
        forwarded: 'for=10.0.0.1;proto=https',
        'x-forwarded-for': '10.0.0.1, 10.0.0.2',
        'x-forwarded-host': 'evil.example',
        'x-real-ip': '10.0.0.3',
        'x-tm-user-id': 'someone-else',
        'x-anything': 'at all',
      },
    });
    expect(me.status).toBe(200);
    expect(relay.seen).toHaveLength(1);
    const sent = relay.seen[0]!;
    for (const header of ['authorization', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'x-anything', 'cookie', 'x-xsrf-token']) {
      expect({ header, value: sent[header] }).toEqual({ header, value: undefined });
    }
    // What the service does get: its request id, and the gateway's own signed statement of the user.
    expect(sent['x-request-id']).toEqual(expect.any(String));
    expect(sent['x-tm-user-id']).toBe((me.body as { user: { _id: string } }).user._id);
    expect(Object.keys(sent).sort()).toEqual(['accept', 'connection', 'host', 'x-request-id', 'x-tm-auth-sig', 'x-tm-auth-ts', 'x-tm-user-id']);
    // And the gateway still read the request as sent: its answer is compressed as the client accepts.
    expect(me.headers.get('vary')).toMatch(/accept-encoding/i);
  });

  it('answers a request with more headers than any browser sends with 431, and nothing is forwarded', async () => {
    const client = new ApiClient(gateway.url);
    relay.seen.length = 0;
    const headers = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`x-filler-${i}`, 'x']));
    const answer = await client.get('/api/user/me', { headers });
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ message: 'The request has too many headers', code: 'REQUEST.HEADERS_TOO_LARGE' });
    expect(relay.seen).toHaveLength(0);
  });
});

/** Raw HTTP over one socket from `localAddress`: resolves with the status line and the body. */
function rawRequest(port: number, text: string, localAddress = '127.0.0.1'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('end', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body });
    });
    socket.on('error', reject);
    socket.write(text);
  });
}

describe('sockets held by a client (SECURITY.md "Limits and timeouts")', () => {
  let stack: RunningStack;
  // The built process with its own bounds (fixed values, not settings): a request's head, connections per address.
  const HEADERS_TIMEOUT_MS = CLIENT_REQUEST_LIMITS.headersTimeoutMs;
  const PER_ADDRESS = CONNECTIONS_PER_ADDRESS;
  beforeAll(async () => {
    stack = await startStack({ env: { MAX_CONNECTIONS: '10000' } });
  });
  afterAll(async () => {
    await stack.stop();
  });
  const port = () => Number(new URL(stack.url).port);

  it('refuses a head over 8 KiB with 431 and a JSON body, not a 502 from a service', async () => {
    const big = 'x'.repeat(16_100);
    const answer = await rawRequest(port(), `GET /api/user/me HTTP/1.1\r\nHost: localhost\r\nX-Big: ${big}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({ message: 'The request headers are too large', code: 'REQUEST.HEADERS_TOO_LARGE' });
    expect((await fetch(`${stack.url}/api/user/me`)).status).toBe(401);
  });

  it('keeps answering a normal user while one address holds hundreds of half-sent requests', async () => {
    const attack: Socket[] = [];
    const closedAt = new Map<Socket, number>();
    const started = Date.now();
    // 500 connections from 127.0.0.2, each sending a request's head one line at a time and never finishing it.
    for (let i = 0; i < 500; i += 1) {
      const socket = connect({ host: '127.0.0.1', port: port(), localAddress: '127.0.0.2' });
      socket.on('error', () => undefined);
      socket.on('close', () => closedAt.set(socket, Date.now()));
      socket.write('GET /api/user/me HTTP/1.1\r\nHost: localhost\r\n');
      attack.push(socket);
    }
    const drip = setInterval(() => {
      for (const socket of attack) if (!socket.destroyed) socket.write(`X-Drip-${Date.now()}: 1\r\n`);
    }, 250);
    try {
      // Meanwhile a person from another address keeps getting answers, at once.
      const { client } = await signUp(stack.url, { name: 'Normal User' });
      const latencies: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const at = Date.now();
        const answer = await client.get('/api/todo/fetch-todo');
        expect(answer.status).toBe(200);
        latencies.push(Date.now() - at);
        await sleep(100);
      }
      expect(Math.max(...latencies)).toBeLessThan(1000);
      // One address holds at most its share: the rest were closed at once.
      await sleep(300);
      expect(closedAt.size).toBeGreaterThanOrEqual(500 - PER_ADDRESS);
      // And none holds on past the time a request's head may take (plus the server's 1 s check), however
      // slowly it keeps sending.
      while (closedAt.size < attack.length && Date.now() - started < HEADERS_TIMEOUT_MS + 5000) await sleep(100);
      expect(attack.filter((socket) => !closedAt.has(socket))).toHaveLength(0);
      expect(Math.max(...closedAt.values()) - started).toBeLessThan(HEADERS_TIMEOUT_MS + 2500);
      // The address may connect again once its sockets are gone: the cap counts what is open, not who.
      const again = await rawRequest(port(), 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', '127.0.0.2');
      expect(again.status).toBe(200);
    } finally {
      clearInterval(drip);
      for (const socket of attack) socket.destroy();
    }
  }, 30_000);
});
