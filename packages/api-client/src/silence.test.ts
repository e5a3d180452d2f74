import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpClient } from './http.js';
import { describeError, isTimeout, TIMEOUT_MESSAGE } from './errors.js';
import { PATIENT_SILENCE_MS, silenceAfter } from './todos.api.js';

/**
 * The client's timeout counts silence, not the length of the call (docs/PRODUCT.md §9). Against a
 * server of the test's own that answers as a slow link or a stuck server would (with the CORS headers
 * jsdom's XHR needs for another port); the silence is 1 s here instead of 10 s (axios reports progress at
 * most three times a second).
 */
const SILENCE_MS = 1000;
let server: Server;
let origin: string;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Routes of the test server: each answers in its own way. */
const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => Promise<void>> = {
  // 15 pieces 200 ms apart: 3 s in all, never silent for 1 s.
  '/trickle': async (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"pieces":[');
    for (let i = 0; i < 15; i += 1) {
      response.write(`${i === 0 ? '' : ','}"${'x'.repeat(64)}"`);
      await wait(200);
    }
    response.end(']}');
  },
  // Nothing at all for 2.5 s.
  '/stuck': async (_request, response) => {
    await wait(2500);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  },
  // Starts answering, then stops for 2.5 s in the middle.
  '/stalls': async (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"half":"');
    await wait(2500);
    response.end('done"}');
  },
};

beforeAll(async () => {
  server = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', window.location.origin);
    response.setHeader('access-control-allow-credentials', 'true');
    response.setHeader('access-control-allow-headers', '*');
    if (request.method === 'OPTIONS') {
      response.end();
      return;
    }
    void routes[request.url ?? '']?.(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the timeout of silence', () => {
  it('lets an answer that keeps coming run past the timeout, to its end', async () => {
    const client = createHttpClient(origin, { silenceMs: SILENCE_MS });
    const started = Date.now();
    const { data } = await client.get<{ pieces: string[] }>('/trickle');
    expect(data.pieces).toHaveLength(15);
    expect(Date.now() - started).toBeGreaterThan(SILENCE_MS * 2); // it really was longer than the timeout
  });

  it('fails a call whose server says nothing, as a timeout with its own words', async () => {
    const client = createHttpClient(origin, { silenceMs: SILENCE_MS });
    const error = await client.get('/stuck').catch((failure: unknown) => failure);
    expect(isTimeout(error)).toBe(true);
    expect(describeError(error, 'fallback')).toBe(TIMEOUT_MESSAGE);
  });

  it('fails a call whose answer stops coming halfway', async () => {
    const client = createHttpClient(origin, { silenceMs: SILENCE_MS });
    const error = await client.get('/stalls').catch((failure: unknown) => failure);
    expect(isTimeout(error)).toBe(true);
  });

  it('waits longer on the attempt after a timeout ("Try again"), so it does not fail the same way', async () => {
    const client = createHttpClient(origin, { silenceMs: SILENCE_MS });
    const first = await client.get('/stuck').catch((failure: unknown) => failure);
    expect(isTimeout(first)).toBe(true);
    // The list's next attempt allows three times the silence; 1 s × 3 covers the stuck server's 2.5 s here.
    expect(silenceAfter(first)).toBe(PATIENT_SILENCE_MS);
    const { data } = await client.get('/stuck', { timeout: (silenceAfter(first) ?? 0) / 10 });
    expect(data).toEqual({});
    expect(silenceAfter(new Error('network'))).toBeUndefined();
  });

  it('still ends a call its caller cancels, and not as a timeout', async () => {
    const client = createHttpClient(origin, { silenceMs: SILENCE_MS * 10 });
    const controller = new AbortController();
    const call = client.get('/stuck', { signal: controller.signal }).catch((failure: unknown) => failure);
    controller.abort();
    const error = await call;
    expect(isTimeout(error)).toBe(false);
    expect(error).toMatchObject({ code: 'ERR_CANCELED' });
  });
});
