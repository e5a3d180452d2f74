// The environment variables the gateway reads, taken from its sources (gateway/src/config.ts and the
// variables every process reads, packages/service-kit/src/config.ts), so that a deployment check can tell a
// variable the gateway reads from one it would ignore (a typo, or a value the code fixes itself).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@tm/test-support';

/** The keys of the zod object that starts at `opening` in `file`: the lines `  NAME: …` up to its closing `});`. */
function schemaKeys(file: string, opening: string): string[] {
  const source = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const start = source.indexOf(opening);
  if (start < 0) throw new Error(`${opening} not found in ${file}`);
  const end = source.indexOf('\n});', start);
  const keys = [...source.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1] ?? '');
  if (keys.length === 0) throw new Error(`no variables found after ${opening} in ${file}`);
  return keys;
}

/** Every variable the gateway reads at start-up (its own and BaseEnv's). */
export function gatewaySettings(): Set<string> {
  return new Set([
    ...schemaKeys('packages/service-kit/src/config.ts', 'export const BaseEnv = z.object({'),
    ...schemaKeys('gateway/src/config.ts', 'const GatewayEnv = BaseEnv.extend({'),
  ]);
}

/** The names of `env` the gateway does not read; OpenTelemetry's own variables (OTEL_*) are read by its SDK. */
export function unreadByGateway(env: Iterable<string>): string[] {
  const read = gatewaySettings();
  return [...env].filter((name) => !read.has(name) && !name.startsWith('OTEL_')).sort();
}
