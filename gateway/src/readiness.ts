import type { Readiness } from '@tm/service-kit';
import type { SessionStore } from './session.repository.js';

/** How long a service's own /readyz may take before it counts as down. */
const PROBE_TIMEOUT_MS = 1000;

async function probe(baseUrl: string): Promise<boolean> {
  try {
    const answer = await fetch(new URL('/readyz', baseUrl), { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return answer.ok;
  } catch {
    return false;
  }
}

export interface ReadinessOptions {
  sessionStore: SessionStore;
  /** Name → base URL of each service behind the gateway. */
  services: Record<string, string>;
}

/**
 * The gateway's `/readyz` (docs/OPERATIONS.md "Health"): it names each dependency and whether it is up. Only
 * the session store decides the status code: without it the gateway can serve nothing (503), while with one
 * service down it still serves the other's routes, so a load balancer must keep sending traffic ("degraded").
 */
export function readiness({ sessionStore, services }: ReadinessOptions): () => Promise<Readiness> {
  return async () => {
    const names = Object.keys(services);
    const [sessions, ...up] = await Promise.all([
      sessionStore.ping().catch(() => false),
      ...names.map((name) => probe(services[name] ?? '')),
    ]);
    return { ready: sessions, checks: { sessions, ...Object.fromEntries(names.map((name, index) => [name, up[index] ?? false])) } };
  };
}
