import { getInstance, init } from '@module-federation/enhanced/runtime';
import { logout } from '@tm/api-client';
import { render, screen, waitFor } from '@testing-library/react';
import { serveCatalog, TODAYS_CATALOG } from '../test/catalog';
import { App } from './app';

// The same browser state as remote-override.test.tsx (a stored override, one in the address), on a
// deployment whose catalog does not allow overrides (REMOTE_OVERRIDES off, the default): the shell goes by
// the catalog, not by its own storage.

const CATALOG = {
  remotes: {
    ...TODAYS_CATALOG.remotes,
    mfe_insights: {
      manifest: '/remotes/insights/mf-manifest.json',
      routes: [{ path: '/insights', module: './InsightsPage', guard: 'public', title: 'Insights', name: 'insights screen' }],
    },
  },
};

describe('remote overrides on a deployment that does not allow them', () => {
  afterEach(() => jest.restoreAllMocks());

  it('ignores and removes a stored override and one in the address: the catalog’s build loads, no banner, nothing asked', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await logout().catch(() => undefined);
    const fetch = serveCatalog(() => CATALOG);
    localStorage.setItem('tm-remote-overrides', JSON.stringify({ insights: 'http://127.0.0.1:3101/mf-manifest.json' }));
    window.history.replaceState(null, '', '/insights?remote-override=insights=http://127.0.0.1:3101/');
    // The page's federation runtime, as the shell's build starts it: what the shell registers and fetches is seen.
    init({ name: 'shell', remotes: [] });
    render(<App />);

    expect(await screen.findByText('The insights screen could not be loaded.')).toBeInTheDocument();
    const fetched = (fetch.mock.calls as [RequestInfo | URL][]).map(([input]) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url));
    const registered = Object.fromEntries((getInstance()?.options.remotes ?? []).map((remote) => [remote.name, 'entry' in remote ? remote.entry : undefined]));
    expect(registered.mfe_insights).toBe(`${location.origin}/remotes/insights/mf-manifest.json`);
    expect(fetched.some((url) => url.includes('/remotes/insights/mf-manifest.json'))).toBe(true);
    expect(fetched.some((url) => url.includes('127.0.0.1:3101'))).toBe(false);
    expect(screen.queryByText(/Using local remote/)).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Load a local remote?' })).not.toBeInTheDocument();
    expect(localStorage.getItem('tm-remote-overrides')).toBeNull();
    const warned = warn.mock.calls.map((call) => String(call[0])).join('\n');
    expect(warned).toContain('stored override ignored and removed: this deployment does not allow remote overrides');
    expect(warned).toContain('?remote-override ignored: this deployment does not allow remote overrides');
    // The address drops the parameter: a reload asks nothing.
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(window.location.pathname).toBe('/insights');
  });
});
