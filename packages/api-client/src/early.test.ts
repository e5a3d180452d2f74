/**
 * @jest-environment node
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { earlyAnswer } from './early.js';
import { isSessionEnded, isTimeout, statusOf } from './errors.js';

/**
 * An answer the page's HTML fetched early reaches the caller exactly as the same call through
 * axios would: its JSON, or the same errors (status and body, network, silence). Node's own fetch against
 * a server of the test's own.
 */
let server: Server;
let origin: string;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  server = createServer((request, response) => {
    void (async () => {
      if (request.url === '/ok') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"user":{"fullName":"Ada"}}');
      } else if (request.url === '/ended') {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end('{"message":"Your session has ended","code":"AUTH.UNAUTHENTICATED"}');
      } else if (request.url === '/slow-but-moving') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('[0');
        for (let i = 1; i < 12; i += 1) {
          await wait(150);
          response.write(`,${i}`);
        }
        response.end(']');
      } else if (request.url === '/stalls') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('[1,');
        await wait(2500);
        response.end('2]');
      } else {
        await wait(2500);
        response.end('{}');
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('an early answer', () => {
  it('gives the JSON of a success', async () => {
    expect(await earlyAnswer(fetch(`${origin}/ok`), '/api/user/me', 1000)).toEqual({ user: { fullName: 'Ada' } });
  });

  it('throws an error answer as axios does: status, body and what it means', async () => {
    const error = await earlyAnswer(fetch(`${origin}/ended`), '/api/todo/fetch-todo', 1000).catch((failure: unknown) => failure);
    expect(statusOf(error)).toBe(401);
    expect(isSessionEnded(error)).toBe(true);
    expect(error).toMatchObject({ response: { data: { message: 'Your session has ended' } } });
  });

  it('reads an answer that keeps coming to its end, however long it takes', async () => {
    // 1.65 s in all, never silent for 1 s.
    expect(await earlyAnswer(fetch(`${origin}/slow-but-moving`), '/x', 1000)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('fails as a timeout when nothing comes, before the answer or in its middle', async () => {
    for (const path of ['/silent', '/stalls']) {
      const error = await earlyAnswer(fetch(`${origin}${path}`), path, 1000).catch((failure: unknown) => failure);
      expect({ path, timeout: isTimeout(error) }).toEqual({ path, timeout: true });
    }
  });

  it('fails as a network error when the request could not be made', async () => {
    const refused = fetch('http://127.0.0.1:9/');
    const error = await earlyAnswer(refused, '/x', 2000).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: 'ERR_NETWORK' });
    expect(statusOf(error)).toBeUndefined();
  });
});
