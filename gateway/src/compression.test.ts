import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { TodoChangeEvent, TodosResponse } from '@tm/contracts';
import { openRawEventStream, type RawStream, type RunningServices, signUp, startServices, upstreamsOf } from '@tm/test-support';
import { startGateway, type TestGateway } from './gateway.test-helpers.js';

/**
 * Answers compressed where the app is served: JSON above 1 KiB gzipped when the browser accepts
 * it, small ones as they are, and the live event stream never compressed, so its events still arrive
 * at once. Raw HTTP (node:http), so the bytes on the wire are what is checked, not a decoded copy.
 */

let services: RunningServices;
let gateway: TestGateway;
let streams: RawStream[] = [];

beforeAll(async () => {
  services = await startServices();
  gateway = await startGateway(upstreamsOf(services));
});
afterEach(() => {
  for (const stream of streams) stream.close();
  streams = [];
});
afterAll(async () => {
  await gateway.close();
  await services.stop();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function raw(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function userWithTasks(count: number) {
  const { client } = await signUp(gateway.url, { name: 'Compressed' });
  for (let i = 0; i < count; i += 1) {
    expect((await client.post('/api/todo/add-todo', { title: `Task ${i} with a title long enough to repeat itself` })).status).toBe(201);
  }
  return client;
}

describe('compressed answers', () => {
  it('sends a large JSON answer gzipped to a browser that accepts it, the same JSON, and says it varies', async () => {
    const client = await userWithTasks(40);
    const url = `${gateway.url}/api/todo/fetch-todo`;
    const plain = await raw(url, { cookie: client.cookieHeader() });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const list = JSON.parse(plain.body.toString()) as TodosResponse;
    expect(list.todos).toHaveLength(40);

    // What a browser sends: gzip (the CPU-cheap one) is chosen for an answer made per request.
    const gzip = await raw(url, { cookie: client.cookieHeader(), 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(list);

    // A client that takes brotli only gets the JSON as it is.
    const brOnly = await raw(url, { cookie: client.cookieHeader(), 'accept-encoding': 'br' });
    expect(brOnly.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(brOnly.body.toString())).toEqual(list);
  });

  it('leaves small answers as they are', async () => {
    const client = await userWithTasks(0);
    const me = await raw(`${gateway.url}/api/user/me`, { cookie: client.cookieHeader(), 'accept-encoding': 'gzip, br' });
    expect(me.status).toBe(200);
    expect(me.body.length).toBeLessThan(1024);
    expect(me.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(me.body.toString())).toMatchObject({ user: { fullName: 'Compressed' } });
  });

  it('never compresses the live stream: an event arrives while the stream stays open', async () => {
    const client = await userWithTasks(0);
    const stream = await openRawEventStream(`${gateway.url}/api/todo/events`, { cookie: client.cookieHeader(), 'accept-encoding': 'gzip, deflate, br' });
    streams.push(stream);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-encoding']).toBeUndefined();
    await stream.waitFor((event) => event.event === 'ready', 5000);
    expect((await client.post('/api/todo/add-todo', { title: 'Seen at once' })).status).toBe(201);
    const change = await stream.waitFor((event) => event.event === 'change', 5000);
    expect((JSON.parse(change.data) as TodoChangeEvent).saved.map((todo) => todo.title)).toEqual(['Seen at once']);
    expect(stream.isEnded).toBe(false);
  });
});
