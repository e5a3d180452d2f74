import { PassThrough } from 'node:stream';

/** A logger destination that keeps every JSON line written to it, parsed, for a test to look into. */
export function jsonLogSink(): { stream: PassThrough; lines: Record<string, unknown>[] } {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  let pending = '';
  stream.on('data', (chunk: Buffer) => {
    const parts = (pending + chunk.toString()).split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts) if (part) lines.push(JSON.parse(part) as Record<string, unknown>);
  });
  return { stream, lines };
}

export interface Readiness {
  status: number;
  body: unknown;
}

/** `GET <baseUrl>/readyz`: its status and JSON body. */
export async function readiness(baseUrl: string): Promise<Readiness> {
  const answer = await fetch(`${baseUrl}/readyz`);
  return { status: answer.status, body: await answer.json() };
}

/** Asks `/readyz` every 100 ms until it answers 200 or `withinMs` have passed; returns the last answer. */
export async function readinessWithin(baseUrl: string, withinMs: number): Promise<Readiness> {
  const started = Date.now();
  let ready = await readiness(baseUrl);
  while (ready.status !== 200 && Date.now() - started < withinMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    ready = await readiness(baseUrl);
  }
  return ready;
}
