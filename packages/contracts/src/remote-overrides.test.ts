import { checkRemoteCatalog } from './remote-catalog.js';
import { checkOriginPattern, checkOverrideOrigins, LOOPBACK_OVERRIDE_ORIGINS, overrideOriginAllowed } from './remote-overrides.js';

describe('the origins a local remote may come from (REMOTE_OVERRIDES)', () => {
  it('takes loopback origins over http and other hosts over https, with a port, any port or the default one', () => {
    expect(checkOriginPattern('http://127.0.0.1:*')).toEqual({ ok: true, pattern: 'http://127.0.0.1:*' });
    expect(checkOriginPattern(' HTTP://LocalHost:3101 ')).toEqual({ ok: true, pattern: 'http://localhost:3101' });
    expect(checkOriginPattern('https://preview.example.com')).toEqual({ ok: true, pattern: 'https://preview.example.com' });
    expect(checkOriginPattern('https://preview.example.com:8443')).toEqual({ ok: true, pattern: 'https://preview.example.com:8443' });
  });

  it.each([
    ['http://preview.example.com', /plain http only for 127.0.0.1 or localhost/],
    ['http://10.0.0.5:3101', /plain http only/],
    ['https://*.example.com', /not an origin/],
    ['*', /not an origin/],
    ['http://127.0.0.1:3101/mf-manifest.json', /not an origin/],
    ['http://127.0.0.1:0', /not an origin/],
    ['http://127.0.0.1:70000', /not an origin/],
    ['ftp://127.0.0.1', /not an origin/],
    ["https://x.example.com';script-src *", /not an origin/],
    ['http://[::1]:3101', /not an origin/],
    ['http://user@127.0.0.1', /not an origin/],
  ])('refuses %j', (text, problem) => {
    const check = checkOriginPattern(text);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.problem).toMatch(problem);
  });

  it('checks a whole list: every problem, or the list without repeats', () => {
    expect(checkOverrideOrigins(['http://127.0.0.1:*', 'http://127.0.0.1:*', 'https://a.example.com'])).toEqual({ ok: true, origins: ['http://127.0.0.1:*', 'https://a.example.com'] });
    const bad = checkOverrideOrigins(['http://a.example.com', 'nope']);
    expect(bad.ok ? [] : bad.problems).toHaveLength(2);
    for (const value of [[], 'http://127.0.0.1:*', [1], Array(11).fill('http://127.0.0.1:*')]) expect(checkOverrideOrigins(value).ok).toBe(false);
  });

  it('allows a URL on an allowed origin only, with the rules of a CSP host source', () => {
    const loopback = [...LOOPBACK_OVERRIDE_ORIGINS];
    const allowed = (url: string, origins: string[] = loopback) => overrideOriginAllowed(new URL(url), origins);
    expect(allowed('http://127.0.0.1:3101/mf-manifest.json')).toBe(true);
    expect(allowed('http://localhost:3101/mf-manifest.json')).toBe(true);
    expect(allowed('http://127.0.0.1/mf-manifest.json')).toBe(true);
    expect(allowed('https://127.0.0.1:3101/mf-manifest.json')).toBe(false);
    expect(allowed('http://127.0.0.2:3101/mf-manifest.json')).toBe(false);
    expect(allowed('http://127.0.0.1.evil.example/mf-manifest.json')).toBe(false);
    expect(allowed('http://user:pass@127.0.0.1:3101/mf-manifest.json')).toBe(false);
    expect(allowed('https://evil.example/mf-manifest.json')).toBe(false);
    expect(allowed('https://preview.example.com/x/mf-manifest.json', ['https://preview.example.com'])).toBe(true);
    expect(allowed('https://preview.example.com:443/x/mf-manifest.json', ['https://preview.example.com'])).toBe(true);
    expect(allowed('https://preview.example.com:8443/x/mf-manifest.json', ['https://preview.example.com'])).toBe(false);
    expect(allowed('http://localhost:3101/x', ['http://localhost:3101'])).toBe(true);
    expect(allowed('http://localhost:3102/x', ['http://localhost:3101'])).toBe(false);
  });

  it('keeps a valid "overrides" of a catalog and refuses a bad one', () => {
    const remotes = { mfe_x: { manifest: '/x/mf-manifest.json', routes: [] } };
    expect(checkRemoteCatalog({ remotes, overrides: { origins: ['http://127.0.0.1:*'] } })).toEqual({ ok: true, catalog: { remotes, overrides: { origins: ['http://127.0.0.1:*'] } } });
    expect(checkRemoteCatalog({ remotes })).toEqual({ ok: true, catalog: { remotes } });
    for (const overrides of [true, {}, { origins: [] }, { origins: [5] }, { origins: Array(11).fill('http://127.0.0.1:*') }]) {
      expect(checkRemoteCatalog({ remotes, overrides })).toEqual({ ok: false, problems: [expect.stringMatching(/^overrides must be an object with "origins"/)] });
    }
    // The catalog checks the shape only; a pattern that is not one never allows anything.
    const odd = checkRemoteCatalog({ remotes, overrides: { origins: ['http://evil.example', 'nonsense'] } });
    expect(odd.ok && odd.catalog.overrides?.origins).toEqual(['http://evil.example', 'nonsense']);
    expect(overrideOriginAllowed(new URL('http://evil.example/mf-manifest.json'), ['nonsense', '*', 'http://*', 'http://evil.example'])).toBe(false);
  });
});
