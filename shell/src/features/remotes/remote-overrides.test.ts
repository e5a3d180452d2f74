import type { RemoteCatalog } from '@tm/contracts';
import { acceptProposed, checkOverride, overrideManifestUrl, pageOverrides, parseOverrideParams, parseStoredOverrides, remoteNamed, withOverrides, withoutOverrideParams } from './remote-overrides';

// A local remote against the real shell. What an override may be, and when it is used at all.

const routes = [{ path: '/insights', module: './InsightsPage', guard: 'signed-in' as const, title: 'Insights', name: 'insights screen' }];
const remotes: RemoteCatalog['remotes'] = {
  mfe_insights: { manifest: '/remotes/insights/mf-manifest.json', version: '0.1.0', buildId: 'b1', routes },
  mfe_tasks: { manifest: '/remotes/tasks/mf-manifest.json', routes: [] },
  mfe_big_screen: { manifest: '/remotes/big-screen/mf-manifest.json', routes: [] },
};
const allowing: RemoteCatalog = { remotes, overrides: { origins: ['http://127.0.0.1:*', 'http://localhost:*'] } };
const refusing: RemoteCatalog = { remotes };

describe('a remote override', () => {
  it('names a remote by the key it is served under or by its federation name', () => {
    expect(remoteNamed(allowing, 'insights')).toBe('mfe_insights');
    expect(remoteNamed(allowing, 'mfe_insights')).toBe('mfe_insights');
    expect(remoteNamed(allowing, 'big-screen')).toBe('mfe_big_screen');
    expect(remoteNamed(allowing, 'stats')).toBeUndefined();
    expect(remoteNamed(allowing, 'toString')).toBeUndefined();
  });

  it('takes a manifest URL, or an origin or folder meaning its mf-manifest.json', () => {
    expect(overrideManifestUrl('http://127.0.0.1:3101')?.href).toBe('http://127.0.0.1:3101/mf-manifest.json');
    expect(overrideManifestUrl(' http://127.0.0.1:3101/build/ ')?.href).toBe('http://127.0.0.1:3101/build/mf-manifest.json');
    expect(overrideManifestUrl('http://127.0.0.1:3101/mf-manifest.json#x')?.href).toBe('http://127.0.0.1:3101/mf-manifest.json');
    for (const text of ['javascript:alert(1)//.json', 'data:application/json,{}', '/remotes/insights/mf-manifest.json', 'http://127.0.0.1:3101/remoteEntry.js', 'not a url']) {
      expect(overrideManifestUrl(text)).toBeUndefined();
    }
  });

  it('is allowed only by a catalog that allows overrides, for one of its remotes, from one of its origins', () => {
    expect(checkOverride(allowing, 'insights', 'http://127.0.0.1:3101')).toEqual({
      ok: true,
      override: { key: 'insights', remote: 'mfe_insights', manifest: 'http://127.0.0.1:3101/mf-manifest.json' },
    });
    const problem = (catalog: RemoteCatalog, key: string, url: unknown) => {
      const check = checkOverride(catalog, key, url);
      return check.ok ? 'allowed' : check.problem;
    };
    expect(problem(refusing, 'insights', 'http://127.0.0.1:3101')).toMatch(/does not allow remote overrides/);
    expect(problem(allowing, 'stats', 'http://127.0.0.1:3101')).toMatch(/"stats" is not a remote of the catalog \(mfe_insights, mfe_tasks, mfe_big_screen\)/);
    expect(problem(allowing, 'insights', 'https://evil.example/mf-manifest.json')).toMatch(/https:\/\/evil\.example is not an origin this deployment allows/);
    expect(problem(allowing, 'insights', 'http://127.0.0.1.evil.example/mf-manifest.json')).toMatch(/not an origin this deployment allows/);
    expect(problem(allowing, 'insights', 'http://user:pw@127.0.0.1:3101/mf-manifest.json')).toMatch(/not an origin this deployment allows/);
    expect(problem(allowing, 'insights', 42)).toMatch(/not an http\(s\) URL of a manifest/);
    expect(problem({ remotes, overrides: { origins: ['https://preview.example.com'] } }, 'insights', 'http://127.0.0.1:3101')).toMatch(/not an origin/);
  });

  it('is read from storage as written; anything else there counts as none', () => {
    expect(parseStoredOverrides('{"insights":"http://127.0.0.1:3101","tasks":5}')).toEqual({ insights: 'http://127.0.0.1:3101' });
    for (const text of [null, '', 'nope', '[]', '"x"', 'null']) expect(parseStoredOverrides(text)).toEqual({});
  });

  it('is proposed by the address, any number at once, or all dropped by reset', () => {
    expect(parseOverrideParams('?remote-override=insights=http://127.0.0.1:3101/mf-manifest.json?v=1&remote-override=tasks=http://localhost:3102')).toEqual({
      reset: false,
      asked: [
        { key: 'insights', manifest: 'http://127.0.0.1:3101/mf-manifest.json?v=1' },
        { key: 'tasks', manifest: 'http://localhost:3102' },
      ],
    });
    expect(parseOverrideParams('?remote-override=reset')).toEqual({ reset: true, asked: [] });
    expect(parseOverrideParams('?other=1')).toEqual({ reset: false, asked: [] });
    expect(withoutOverrideParams('http://app.test/insights?remote-override=reset&x=1#top')).toBe('http://app.test/insights?x=1#top');
  });
});

describe('the overrides of a page load', () => {
  const stored = { insights: 'http://127.0.0.1:3101', tasks: 'https://evil.example/mf-manifest.json' };

  it('uses the allowed stored ones in place of the catalog’s manifest, keeps only those, and says why the others were not', () => {
    const page = pageOverrides(allowing, stored, '');
    expect(page.overrides).toEqual([{ key: 'insights', remote: 'mfe_insights', manifest: 'http://127.0.0.1:3101/mf-manifest.json' }]);
    // The deployed build's version and build id are not the local one's.
    expect(page.catalog.remotes.mfe_insights).toEqual({ manifest: 'http://127.0.0.1:3101/mf-manifest.json', routes });
    expect(page.catalog.remotes.mfe_tasks).toBe(remotes.mfe_tasks);
    expect(page.catalog.overrides).toEqual(allowing.overrides);
    expect(page.keep).toEqual({ insights: 'http://127.0.0.1:3101' });
    expect(page.problems).toEqual([expect.stringMatching(/^stored override ignored and removed: tasks: https:\/\/evil\.example is not an origin/)]);
    expect(page.proposed).toEqual([]);
  });

  it('ignores and drops every stored one, and every proposal, when the catalog does not allow overrides', () => {
    const page = pageOverrides(refusing, stored, '?remote-override=tasks=http://127.0.0.1:3102');
    expect(page.catalog).toBe(refusing);
    expect(page.overrides).toEqual([]);
    expect(page.proposed).toEqual([]);
    expect(page.keep).toEqual({});
    expect(page.problems).toHaveLength(3);
    for (const problem of page.problems) expect(problem).toMatch(/does not allow remote overrides/);
  });

  it('proposes what the address asks for (allowed ones only), without using it yet', () => {
    const page = pageOverrides(allowing, {}, '?remote-override=tasks=http://localhost:3102/&remote-override=insights=https://evil.example/');
    expect(page.overrides).toEqual([]);
    expect(page.catalog).toBe(allowing);
    expect(page.proposed).toEqual([{ key: 'tasks', remote: 'mfe_tasks', manifest: 'http://localhost:3102/mf-manifest.json' }]);
    expect(page.problems).toEqual([expect.stringMatching(/^\?remote-override ignored: insights: https:\/\/evil\.example is not an origin/)]);
    // Accepted: stored, replacing an earlier override of the same remote under its other name.
    expect(acceptProposed(allowing, { mfe_tasks: 'http://127.0.0.1:9999', insights: 'http://127.0.0.1:3101' }, page.proposed)).toEqual({
      insights: 'http://127.0.0.1:3101',
      tasks: 'http://localhost:3102/mf-manifest.json',
    });
  });

  it('uses none after reset', () => {
    const page = pageOverrides(allowing, stored, '?remote-override=reset');
    expect([page.overrides, page.keep, page.proposed]).toEqual([[], {}, []]);
  });

  it('leaves a catalog without overrides as it is', () => {
    expect(withOverrides(allowing, [])).toBe(allowing);
  });
});
