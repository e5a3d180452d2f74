import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { trace } from '@opentelemetry/api';
import { createLogger, traceFields } from './logger.js';
import { injectTraceHeaders, openSpan, startTracing, traceMethods, traceRequests, tracingEnabled, untraced, withSpan } from './tracing.js';

/**
 * Tracing off (no OTLP endpoint) must cost nothing: the SDK is not started, and every helper hands back
 * what it was given or runs the work directly. Tracing on, across the real processes, is
 * gateway/src/tracing.test.ts.
 */
describe('tracing when no OTLP endpoint is set', () => {
  it('does not start the SDK: the API keeps its no-op tracer', () => {
    expect(startTracing('svc-test', undefined, {})).toEqual({ enabled: false });
    expect(startTracing('svc-test', undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toEqual({ enabled: false });
    // The standard switch wins over an endpoint.
    expect(startTracing('svc-test', undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toEqual({ enabled: false });
    expect(tracingEnabled()).toBe(false);
    // A bad endpoint stops the start, naming the variable, before anything is started.
    expect(() => startTracing('svc-test', undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT: must be an http/);
    expect(tracingEnabled()).toBe(false);
    const span = trace.getTracer('probe').startSpan('probe');
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext().traceId).toBe('00000000000000000000000000000000');
  });

  it('hands back the listener, the store and the work unchanged', async () => {
    const listener = (_req: IncomingMessage, _res: ServerResponse) => undefined;
    expect(traceRequests(listener)).toBe(listener);
    const store = { find: async (id: string) => ({ id }) };
    expect(traceMethods(store, 'store', ['find'])).toBe(store);
    expect(withSpan('work', (span) => ({ span, answer: 42 }))).toEqual({ span: undefined, answer: 42 });
    await expect(withSpan('failing work', () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(untraced(() => 'done')).toBe('done');
    const relay = openSpan('events.relay');
    expect(relay.run(() => 'inside')).toBe('inside');
    relay.end(new Error('ignored'));
  });

  it('writes no trace headers and no trace fields in log lines', () => {
    const headers: Record<string, unknown> = { accept: 'application/json' };
    injectTraceHeaders(headers);
    expect(headers).toEqual({ accept: 'application/json' });
    expect(traceFields()).toEqual({});
    const out = new PassThrough();
    let written = '';
    out.on('data', (chunk: Buffer) => (written += chunk.toString()));
    createLogger('svc-test', 'info', 'json', out).info({ reqId: 'r-1' }, 'request completed');
    const line = JSON.parse(written.trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ reqId: 'r-1', msg: 'request completed' });
    expect(line).not.toHaveProperty('trace_id');
    expect(line).not.toHaveProperty('span_id');
  });
});
