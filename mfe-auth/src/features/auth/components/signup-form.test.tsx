import { currentUserQuery, fetchCurrentUser, logout } from '@tm/api-client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { newAccount, renderPage, signUpNewUser } from '@tm/web-test-support';
import toast from 'react-hot-toast';
import { SignupForm } from './signup-form';

/** Observes the current-user check while the form is shown, as the shell's route guard does. */
function SessionProbe() {
  const { data, isPending } = useQuery(currentUserQuery());
  return <p>{isPending ? 'checking' : data ? `probe: ${data.email}` : 'probe: signed out'}</p>;
}

/** The home route fetches nothing: it names the user only if the form refreshed the current-user check. */
function Home() {
  const user = useQueryClient().getQueryData(currentUserQuery().queryKey);
  return <p>home of {user?.fullName ?? 'nobody'}</p>;
}

function renderSignup() {
  return renderPage(
    <>
      <SessionProbe />
      <SignupForm headingId="signup-title" />
    </>,
    { route: '/signup', routes: { '/': <Home />, '/login': <p>login page</p> } },
  );
}

async function fill(events: ReturnType<typeof userEvent.setup>, account: { fullName: string; email: string; password: string }) {
  await events.type(screen.getByLabelText('Full Name'), account.fullName);
  await events.type(screen.getByLabelText('Email'), account.email);
  await events.type(screen.getByLabelText('Password'), account.password);
  await events.click(screen.getByRole('button', { name: 'Sign Up' }));
}

beforeEach(async () => {
  toast.remove();
  await logout().catch(() => undefined);
});

describe('SignupForm against the real gateway', () => {
  it('creates the account, signs the user in and lands on /', async () => {
    const account = newAccount('Signup Tester');
    const events = userEvent.setup();
    renderSignup();
    expect(await screen.findByText('probe: signed out')).toBeInTheDocument();

    await fill(events, account);

    expect(screen.getByRole('button', { name: 'Signing up...' })).toBeDisabled();
    expect(await screen.findByText('home of Signup Tester')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Account created successfully');
    expect(await fetchCurrentUser()).toMatchObject({ fullName: 'Signup Tester', email: account.email });
  });

  it('toasts the server message when the email is taken, and stays on the form', async () => {
    const existing = await signUpNewUser('Already Here');
    await logout();
    const events = userEvent.setup();
    renderSignup();
    await screen.findByText('probe: signed out');

    await fill(events, { fullName: 'Someone Else', email: existing.email, password: 'another password' });

    expect(await screen.findByRole('status')).toHaveTextContent('An account with this email already exists');
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
    expect(screen.queryByText(/home of/)).not.toBeInTheDocument();
    expect(await fetchCurrentUser()).toBeNull();
  });

  it('has labelled, required fields with native email validation', async () => {
    const events = userEvent.setup();
    renderSignup();
    const fullName = screen.getByLabelText('Full Name');
    const email = screen.getByLabelText('Email');
    const password = screen.getByLabelText('Password');
    for (const field of [fullName, email, password]) expect(field).toBeRequired();
    expect(fullName).toHaveAttribute('autocomplete', 'name');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('autocomplete', 'email');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByRole('heading', { level: 1 })).toHaveAttribute('id', 'signup-title');

    await events.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(fullName).toBeInvalid();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
  });

  it('links to login with the exact text "Already have an account? Login"', async () => {
    const events = userEvent.setup();
    renderSignup();
    const link = screen.getByRole('link', { name: 'Already have an account? Login' });
    expect(link).toHaveTextContent(/^Already have an account\? Login$/);
    expect(link).toHaveAttribute('href', '/login');
    await events.click(link);
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });
});
