import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { logout } from '@tm/api-client';
import { serveCatalog, TODAYS_CATALOG } from '../test/catalog';
import { App } from './app';

/** A catalog that is not valid never gives a blank page: a message with Retry, and the problems in the console. */
describe('a remote catalog the shell cannot use', () => {
  beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('shows a message with Retry and logs every problem, then builds the routes once the catalog is fixed', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await logout().catch(() => undefined);
    // First the network fails, then the catalog is not valid, then it is fixed.
    let catalog = (): unknown => {
      throw new TypeError('Failed to fetch');
    };
    const fetch = serveCatalog(() => catalog());
    window.history.replaceState(null, '', '/login');
    render(<App />);
    expect(await screen.findByRole('alert', { name: 'The screens could not be loaded.' })).toBeInTheDocument();
    expect(error.mock.calls.map((call) => String(call[0])).join('\n')).toContain('The remote catalog /remotes.json could not be read');

    catalog = () => ({
      remotes: {
        mfe_auth: { ...TODAYS_CATALOG.remotes.mfe_auth, routes: [{ path: 'login', module: './LoginPage', guard: 'visitors', title: 'Sign in', name: 'sign-in screen' }] },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(await screen.findByRole('alert', { name: 'The screens could not be loaded.' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Screens unavailable · Task Manager'));
    // The header still works around it.
    expect(screen.getByTitle('Switch to dark mode')).toBeInTheDocument();
    const logged = error.mock.calls.map((call) => call.map(String).join(' ')).join('\n');
    expect(logged).toContain('/remotes.json is not valid');
    expect(logged).toContain('remotes.mfe_auth.routes[0].path must be an absolute path');
    expect(logged).toContain('remotes.mfe_auth.routes[0].guard must be one of signed-in, signed-out, public');

    // Valid for the contracts, but the shell's own rule: signed-in routes need a signed-out one (sign-in).
    catalog = () => ({ remotes: { mfe_tasks: TODAYS_CATALOG.remotes.mfe_tasks } });
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(3));
    expect(await screen.findByRole('alert', { name: 'The screens could not be loaded.' })).toBeInTheDocument();
    expect(error.mock.calls.map((call) => String(call[0])).join('\n')).toContain('a catalog with signed-in routes needs a signed-out route');

    // Fixed, with the sign-in screen at another address: the shell sends a visitor where the catalog says.
    const auth = TODAYS_CATALOG.remotes.mfe_auth;
    catalog = () => ({ remotes: { ...TODAYS_CATALOG.remotes, mfe_auth: { ...auth, routes: auth.routes.map((route) => (route.module === './LoginPage' ? { ...route, path: '/sign-in' } : route)) } } });
    window.history.replaceState(null, '', '/');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(window.location.pathname).toBe('/sign-in'));
    expect(await screen.findByText('The sign-in screen could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByRole('alert', { name: 'The screens could not be loaded.' })).not.toBeInTheDocument();
    // Fetched once per attempt; never again while the page lives.
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(fetch).toHaveBeenCalledWith('/remotes.json', { cache: 'no-cache' });
  });
});
