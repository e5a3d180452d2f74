// Local remotes against the real shell (docs/ADDING_A_REMOTE.md "Trying your remote against the
// real shell"): a deployment that allows it (the gateway's REMOTE_OVERRIDES) says so in its catalog, with the
// origins an override may load code from; a browser then loads one remote from a team's machine instead of
// the catalog's build. Those origins are also what the Content-Security-Policy allows, so the gateway, the
// shell image and the shell read them with the functions here. Hand-written, like remote-catalog.ts: the
// shell checks an override on every page load within its first-load budget.
//
// Why so narrow: an override is a script the page runs with the user's session. Anything that can write the
// browser's storage (an XSS, once) could otherwise keep its code running on every later visit. So an override
// may only come from an origin the deployment names, plain http only on the machine itself (127.0.0.1,
// localhost: nobody else can serve there), and the shell shows a banner while one is in use.

/** What `REMOTE_OVERRIDES=on` allows: a remote served on this machine, any port. */
export const LOOPBACK_OVERRIDE_ORIGINS = ['http://127.0.0.1:*', 'http://localhost:*'] as const;

/** The hosts plain http is allowed for: only the browser's own machine. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

/** `scheme://host`, `scheme://host:port` or `scheme://host:*`: a CSP host source without path or wildcard host. */
const ORIGIN_PATTERN = /^(https?):\/\/([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(?::(\*|[0-9]{1,5}))?$/;

/** At most this many origin patterns (a deployment names a few; the catalog's check has the same limit). */
export const MAX_OVERRIDE_ORIGINS = 10;

interface OriginPattern {
  scheme: 'http' | 'https';
  host: string;
  /** `*`: any port; undefined: the scheme's default port, as in a CSP source. */
  port: number | '*' | undefined;
}

export type OriginPatternCheck = { ok: true; pattern: string } | { ok: false; problem: string };

function parsePattern(text: string): OriginPattern | undefined {
  const match = ORIGIN_PATTERN.exec(text);
  if (!match) return undefined;
  const [, scheme, host = '', port] = match;
  if (port !== undefined && port !== '*' && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  return { scheme: scheme as OriginPattern['scheme'], host, port: port === '*' ? '*' : port === undefined ? undefined : Number(port) };
}

/**
 * Checks one origin pattern of REMOTE_OVERRIDES: `http://127.0.0.1:*`, `https://preview.example.com`.
 * Plain http only for loopback hosts: an override over http from elsewhere could be replaced on the way.
 */
export function checkOriginPattern(text: string): OriginPatternCheck {
  const pattern = parsePattern(text.trim().toLowerCase());
  if (!pattern) return { ok: false, problem: `${JSON.stringify(text)} is not an origin such as http://127.0.0.1:* or https://preview.example.com (no path, no wildcard host)` };
  if (pattern.scheme === 'http' && !LOOPBACK_HOSTS.has(pattern.host)) {
    return { ok: false, problem: `${JSON.stringify(text)}: plain http only for 127.0.0.1 or localhost; use https for another host` };
  }
  return { ok: true, pattern: `${pattern.scheme}://${pattern.host}${pattern.port === undefined ? '' : `:${pattern.port}`}` };
}

/**
 * Checks a list of origin patterns (the catalog's `overrides.origins`): every problem, or the normalised
 * list.
 */
export function checkOverrideOrigins(value: unknown): { ok: true; origins: string[] } | { ok: false; problems: string[] } {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_OVERRIDE_ORIGINS || !value.every((item) => typeof item === 'string')) {
    return { ok: false, problems: [`a list of 1 to ${MAX_OVERRIDE_ORIGINS} origins such as http://127.0.0.1:*`] };
  }
  const problems: string[] = [];
  const origins: string[] = [];
  for (const item of value) {
    const check = checkOriginPattern(item);
    if (!check.ok) problems.push(check.problem);
    else if (!origins.includes(check.pattern)) origins.push(check.pattern);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, origins };
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Whether an (absolute) URL is on an origin one of the patterns allows, with a CSP host source's rules; a
 * pattern that is not a valid one allows nothing.
 */
export function overrideOriginAllowed(url: URL, origins: readonly string[]): boolean {
  if (url.username || url.password) return false;
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
  return origins.some((text) => {
    const pattern = parsePattern(text);
    // Plain http from elsewhere than this machine never, whoever wrote the list (checkOriginPattern's rule).
    if (!pattern || (pattern.scheme === 'http' && !LOOPBACK_HOSTS.has(pattern.host))) return false;
    if (url.protocol !== `${pattern.scheme}:` || url.hostname !== pattern.host) return false;
    if (pattern.port === '*') return true;
    return port === (pattern.port ?? DEFAULT_PORTS[url.protocol]);
  });
}
