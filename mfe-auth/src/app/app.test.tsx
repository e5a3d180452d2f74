import { fetchCurrentUser, logout } from '@tm/api-client';
import { PlatformProviders } from '@tm/web-platform';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { newAccount, signUpNewUser } from '@tm/web-test-support';
import toast from 'react-hot-toast';
import { MemoryRouter } from 'react-router-dom';
import { App } from './app';

/** The standalone app as bootstrap.tsx mounts it: the web platform's providers, with a memory router. */
function renderApp(route: string) {
  return render(
    <PlatformProviders>
      <MemoryRouter initialEntries={[route]}>
        <App />
      </MemoryRouter>
    </PlatformProviders>,
  );
}

beforeEach(async () => {
  toast.remove();
  await logout().catch(() => undefined);
});

describe('the standalone app against the real gateway', () => {
  it('goes from signed out to signed in through the login page, and logs out', async () => {
    const user = await signUpNewUser('Standalone Tester');
    await logout();
    const events = userEvent.setup();
    renderApp('/');

    await events.click(await screen.findByRole('link', { name: 'Sign in' }));
    await events.type(await screen.findByLabelText('Email'), user.email);
    await events.type(screen.getByLabelText('Password'), user.password);
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Signed in as Standalone Tester')).toBeInTheDocument();

    await events.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    expect(await fetchCurrentUser()).toBeNull();
  });

  it('signs a new user up from the signup page', async () => {
    const account = newAccount('Fresh Signup');
    const events = userEvent.setup();
    renderApp('/signup');

    await events.type(await screen.findByLabelText('Full Name'), account.fullName);
    await events.type(screen.getByLabelText('Email'), account.email);
    await events.type(screen.getByLabelText('Password'), account.password);
    await events.click(screen.getByRole('button', { name: 'Sign Up' }));

    expect(await screen.findByText('Signed in as Fresh Signup')).toBeInTheDocument();
  });

  it('sends a signed-in user away from /login and unknown paths to /', async () => {
    await signUpNewUser('Already In');
    const { unmount } = renderApp('/login');
    expect(await screen.findByText('Signed in as Already In')).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    unmount();

    renderApp('/no/such/page');
    expect(await screen.findByText('Signed in as Already In')).toBeInTheDocument();
  });
});
