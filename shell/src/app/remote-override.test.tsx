import { getInstance, init } from '@module-federation/enhanced/runtime';
import { logout } from '@tm/api-client';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { serveCatalog, TODAYS_CATALOG } from '../test/catalog';
import { App } from './app';

// A local remote against the real shell, on a deployment that allows it (the catalog's
// `overrides`, written by the gateway from REMOTE_OVERRIDES). The catalog is read once per page load, so
// this file is one page load; remote-override-off.test.tsx is the same browser state on a deployment that
// does not allow overrides.

const CATALOG = {
  remotes: {
    ...TODAYS_CATALOG.remotes,
    mfe_insights: {
      manifest: '/remotes/insights/mf-manifest.json',
      version: '0.1.0',
      buildId: 'insights-deployed',
      routes: [{ path: '/insights', module: './InsightsPage', guard: 'public', title: 'Insights', name: 'insights screen' }],
    },
  },
  overrides: { origins: ['http://127.0.0.1:*', 'http://localhost:*'] },
};

describe('a local remote in place of the catalog’s, where the deployment allows it', () => {
  afterEach(() => jest.restoreAllMocks());

  it('loads the stored override’s manifest instead of the catalog’s, shows the banner, asks before using one from the address, and resets', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(console, 'info').mockImplementation(() => undefined);
    await logout().catch(() => undefined);
    const fetch = serveCatalog(() => CATALOG);
    localStorage.setItem('tm-remote-overrides', JSON.stringify({ insights: 'http://127.0.0.1:3101', tasks: 'https://evil.example/mf-manifest.json' }));
    window.history.replaceState(null, '', '/insights?remote-override=tasks=http://localhost:3102/');
    // The page's federation runtime, as the shell's build starts it: what the shell registers and fetches is seen.
    init({ name: 'shell', remotes: [] });
    render(<App />);

    const banner = (await screen.findByText(/Using local remote/)).closest<HTMLElement>('[role="status"]');
    if (!banner) throw new Error('the banner is not a status');
    expect(banner.textContent).toBe('Using local remote: insights from http://127.0.0.1:3101 — Reset');
    // The page's remote comes from the override (the runtime fetched its manifest), never from the catalog's build.
    expect(await screen.findByText('The insights screen could not be loaded.')).toBeInTheDocument();
    const fetched = (fetch.mock.calls as [RequestInfo | URL][]).map(([input]) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url));
    const registered = Object.fromEntries((getInstance()?.options.remotes ?? []).map((remote) => [remote.name, 'entry' in remote ? remote.entry : undefined]));
    expect(registered.mfe_insights).toBe('http://127.0.0.1:3101/mf-manifest.json');
    expect(registered.mfe_tasks).toBe(`${location.origin}/remotes/tasks/mf-manifest.json`);
    expect(fetched).toContain('http://127.0.0.1:3101/mf-manifest.json');
    expect(fetched.some((url) => url.includes('/remotes/insights/'))).toBe(false);
    // The refused one is said in the console and no longer stored.
    expect(warn.mock.calls.map((call) => String(call[0])).join('\n')).toMatch(/tasks: https:\/\/evil\.example is not an origin this deployment allows/);
    expect(JSON.parse(localStorage.getItem('tm-remote-overrides') ?? '{}')).toEqual({ insights: 'http://127.0.0.1:3101' });

    // The address proposed another: asked, not used, until accepted.
    const ask = screen.getByRole('region', { name: 'Load a local remote?' });
    expect(ask.textContent).toContain('Load tasks from http://localhost:3102/mf-manifest.json instead of the deployed build?');
    expect(fetched).not.toContain('http://localhost:3102/mf-manifest.json');
    await userEvent.click(within(ask).getByRole('button', { name: 'Use local remote' }));
    expect(JSON.parse(localStorage.getItem('tm-remote-overrides') ?? '{}')).toEqual({ insights: 'http://127.0.0.1:3101', tasks: 'http://localhost:3102/mf-manifest.json' });

    // Reset drops them all (and loads the page again, which jsdom does not do).
    await userEvent.click(within(banner).getByRole('button', { name: 'Reset' }));
    expect(localStorage.getItem('tm-remote-overrides')).toBeNull();
  });
});
