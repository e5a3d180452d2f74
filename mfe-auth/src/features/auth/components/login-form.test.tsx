import { currentUserQuery, logout } from '@tm/api-client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage, signUpNewUser } from '@tm/web-test-support';
import toast from 'react-hot-toast';
import { LoginForm } from './login-form';

/** Observes the current-user check while the form is shown, as the shell's route guard does. */
function SessionProbe() {
  const { data, isPending } = useQuery(currentUserQuery());
  return <p>{isPending ? 'checking' : data ? `probe: ${data.email}` : 'probe: signed out'}</p>;
}

/** The home route fetches nothing: it names the user only if the form refreshed the current-user check. */
function Home() {
  const user = useQueryClient().getQueryData(currentUserQuery().queryKey);
  return <p>home of {user?.email ?? 'nobody'}</p>;
}

async function signedOutUser() {
  const user = await signUpNewUser('Login Tester');
  await logout();
  return user;
}

function renderLogin() {
  return renderPage(
    <>
      <SessionProbe />
      <LoginForm headingId="login-title" />
    </>,
    { route: '/login', routes: { '/': <Home />, '/signup': <p>signup page</p> } },
  );
}

beforeEach(() => toast.remove());

describe('LoginForm against the real gateway', () => {
  it('signs in: pending label, success toast, user known before landing on /', async () => {
    const user = await signedOutUser();
    const events = userEvent.setup();
    renderLogin();
    expect(await screen.findByText('probe: signed out')).toBeInTheDocument();

    await events.type(screen.getByLabelText('Email'), user.email);
    await events.type(screen.getByLabelText('Password'), user.password);
    await events.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(screen.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
    expect(await screen.findByText(`home of ${user.email}`)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Logged in successfully');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the server message in the banner only (no toast) for a wrong password', async () => {
    const user = await signedOutUser();
    const events = userEvent.setup();
    renderLogin();
    await screen.findByText('probe: signed out');

    await events.type(screen.getByLabelText('Email'), user.email);
    await events.type(screen.getByLabelText('Password'), 'not the password');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent(/^Invalid email or password$/);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    // The banner is the one report of the failure: no toast repeats it, now or a moment later.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getAllByText('Invalid email or password')).toEqual([banner]);
    expect(screen.queryByText(/home of/)).not.toBeInTheDocument();
    expect(screen.getByText('probe: signed out')).toBeInTheDocument();
  });

  it('after repeated wrong passwords, shows the gateway\'s "Too many attempts" sentence in the banner', async () => {
    const user = await signedOutUser();
    const events = userEvent.setup();
    renderLogin();
    await screen.findByText('probe: signed out');
    await events.type(screen.getByLabelText('Email'), user.email);

    // The gateway's throttle per account: a few failures in a row, then each try must wait (429, Retry-After).
    const seen: string[] = [];
    for (let attempt = 0; attempt < 6 && !seen.some((text) => text.startsWith('Too many')); attempt += 1) {
      await events.clear(screen.getByLabelText('Password'));
      await events.type(screen.getByLabelText('Password'), `wrong password ${attempt}`);
      await events.click(screen.getByRole('button', { name: 'Sign In' }));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled());
      seen.push((await screen.findByRole('alert')).textContent ?? '');
    }

    expect(seen[0]).toBe('Invalid email or password');
    expect(seen.at(-1)).toMatch(/^Too many attempts\. Try again in \d+ (second|minute)s?\.$/);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByRole('status')).not.toBeInTheDocument(); // the banner only, no toast
    expect(screen.getByText('probe: signed out')).toBeInTheDocument();
  });

  it('has labelled, required fields with native email validation', async () => {
    const events = userEvent.setup();
    renderLogin();
    const email = screen.getByLabelText('Email');
    const password = screen.getByLabelText('Password');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('autocomplete', 'email');
    expect(email).toBeRequired();
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    expect(password).toBeRequired();
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome back' })).toHaveAttribute('id', 'login-title');

    // Empty fields: the browser's validation stops the submission, nothing is sent.
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(email).toBeInvalid();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    await events.type(email, 'not-an-email');
    expect(email).toBeInvalid();
  });

  it('links to signup with "Create one"', async () => {
    const events = userEvent.setup();
    renderLogin();
    expect(screen.getByText(/Don't have an account\?/)).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Create one' });
    expect(link).toHaveAttribute('href', '/signup');
    await events.click(link);
    expect(await screen.findByText('signup page')).toBeInTheDocument();
  });
});
