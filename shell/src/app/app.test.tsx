import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signUpNewUser } from '@tm/web-test-support';
import { serveCatalog, TODAYS_CATALOG } from '../test/catalog';
import { App } from './app';

// The remotes are not built into this test: the federation runtime cannot load them here, so each
// remote page shows the shell's fallback. That is enough to see which page a route chose, and it
// exercises the fallback path for real.
function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  return render(<App />);
}

describe('the shell app against the real gateway', () => {
  beforeEach(() => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    serveCatalog(() => TODAYS_CATALOG);
  });
  afterEach(() => jest.restoreAllMocks());

  it('shows the loading screen, then sends a signed-out visitor from / to /login', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/');
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(await screen.findByText('The sign-in screen could not be loaded.')).toBeInTheDocument();
    expect(screen.getByTitle('Switch to dark mode')).toBeInTheDocument();
    expect(screen.queryByTitle('Logout')).not.toBeInTheDocument();
  });

  it('keeps a signed-in user on /, sends unknown paths and /login to /, and logs out to /login', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await signUpNewUser('Shell User');
    const { unmount } = renderAt('/somewhere/else');
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(await screen.findByText('The task list could not be loaded.')).toBeInTheDocument();
    unmount();

    renderAt('/login');
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    await userEvent.click(await screen.findByTitle('Logout'));
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(screen.queryByTitle('Logout')).not.toBeInTheDocument();
  });

  it('retries a remote from the fallback', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/signup');
    const retry = await screen.findByRole('button', { name: 'Retry' });
    await userEvent.click(retry);
    expect(await screen.findByText('The sign-up screen could not be loaded.')).toBeInTheDocument();
  });
});
