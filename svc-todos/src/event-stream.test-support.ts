// Test support (no tests here): opens svc-todos' live stream over real HTTP as the gateway would, with a
// signed identity, through the shared raw SSE reader of @tm/test-support.
import { randomUUID } from 'node:crypto';
import { signIdentity } from '@tm/service-kit';
import { openRawEventStream, TEST_SECRET, type RawStream } from '@tm/test-support';

export type { RawStream as EventStreamClient, SseFrame } from '@tm/test-support';

export interface OpenStreamOptions {
  userId: string;
  /** Query string, e.g. `?after=12`. */
  query?: string;
  lastEventId?: string;
  headers?: Record<string, string>;
}

export function openEventStream(baseUrl: string, options: OpenStreamOptions): Promise<RawStream> {
  const path = `/todo/events${options.query ?? ''}`;
  const requestId = randomUUID();
  return openRawEventStream(baseUrl + path, {
    'x-request-id': requestId,
    ...signIdentity(TEST_SECRET, { method: 'GET', url: path, userId: options.userId, requestId }),
    ...(options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId }),
    ...options.headers,
  });
}
