import { once } from 'node:events';
import type { Server } from 'node:http';
import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import { signIdentity } from '@tm/service-kit';

export interface Started {
  url: string;
  server: Server;
  close: () => Promise<void>;
}

/** Serves `app` on 127.0.0.1 at an ephemeral port: tests talk real HTTP to it. */
export async function listen(app: Koa): Promise<Started> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { TEST_SECRET } from './secret.js';

export { TEST_SECRET };

export interface SignedCall {
  method?: string;
  /** Path and query as the service sees them, e.g. `/todo/fetch-todo`. */
  path: string;
  userId?: string;
  body?: unknown;
  /** Raw body (sent as-is) instead of JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
  secret?: string;
}

export interface CallResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Calls a service as the gateway would: with a request id and a valid identity signature. */
export async function signedCall<T = unknown>(baseUrl: string, call: SignedCall): Promise<CallResult<T>> {
  const method = call.method ?? 'GET';
  const requestId = randomUUID();
  const identity = signIdentity(call.secret ?? TEST_SECRET, {
    method,
    url: call.path,
    userId: call.userId ?? '',
    requestId,
  });
  const headers: Record<string, string> = { 'x-request-id': requestId, ...identity, ...call.headers };
  let body: string | undefined = call.rawBody;
  if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(baseUrl + call.path, { method, headers, body });
  return { status: response.status, body: (await readBody(response)) as T, headers: response.headers };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
export * from './temp-dir.js';
export * from './processes.js';
export * from './accounts.js';
export * from './api-client.js';
export * from './stack.js';
export * from './tcp-relay.js';
export * from './event-stream.js';
export * from './sse-reader.js';
export * from './small-disk.js';
export * from './service-probes.js';
export * from './external-remote.js';
export * from './outbox.js';
export * from './calendar.js';
export * from './push-receiver.js';
