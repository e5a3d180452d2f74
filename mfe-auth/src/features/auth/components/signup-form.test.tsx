import { currentUserQuery, fetchCurrentUser, logout } from '@tm/api-client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WEAK_PASSWORD_MESSAGE } from '@tm/password-policy';
import { newAccount, renderPage, signUpNewUser } from '@tm/web-test-support';
import toast from 'react-hot-toast';
import { pretendBrowserZone } from '../../../test/browser-zone';
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

  it("keeps the browser's time zone with the new account (docs/PRODUCT.md §10.14)", async () => {
    const restore = pretendBrowserZone('Asia/Calcutta');
    try {
      const account = newAccount('Zone Signup');
      const events = userEvent.setup();
      renderSignup();
      await screen.findByText('probe: signed out');
      await fill(events, account);
      expect(await screen.findByText('home of Zone Signup')).toBeInTheDocument();
      expect(await fetchCurrentUser()).toMatchObject({ email: account.email, timeZone: 'Asia/Calcutta' });
    } finally {
      restore();
    }
  });

  it('signs up without a zone when the server does not know the browser\'s, and the account then has none', async () => {
    const restore = pretendBrowserZone('Mars/Olympus_Mons');
    try {
      const account = newAccount('Zone Unknown');
      const events = userEvent.setup();
      renderSignup();
      await screen.findByText('probe: signed out');
      await fill(events, account);
      expect(await screen.findByText('home of Zone Unknown')).toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent('Account created successfully');
      const user = await fetchCurrentUser();
      expect(user).toMatchObject({ email: account.email });
      expect(user).not.toHaveProperty('timeZone');
    } finally {
      restore();
    }
  });

  it('shows a taken email next to the Email field (no toast), and stays on the form', async () => {
    const existing = await signUpNewUser('Already Here');
    await logout();
    const events = userEvent.setup();
    renderSignup();
    await screen.findByText('probe: signed out');

    await fill(events, { fullName: 'Someone Else', email: existing.email, password: 'another password' });

    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    const message = screen.getByText('An account with this email already exists');
    expect(email.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    expect(email).toHaveAccessibleDescription('An account with this email already exists');
    expect(email).toHaveFocus(); // the field to fix, so its message is read out with it
    expect(screen.getByLabelText('Full Name')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument(); // it concerns a field, not the whole form
    expect(screen.queryByRole('status')).not.toBeInTheDocument(); // and no toast
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
    expect(screen.queryByText(/home of/)).not.toBeInTheDocument();
    expect(await fetchCurrentUser()).toBeNull();

    // Changing the email takes the message away.
    await events.type(email, 'x');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('An account with this email already exists')).not.toBeInTheDocument();
  });

  it('shows a failure that concerns no field (offline) above the fields, and sends nothing', async () => {
    const account = newAccount('Offline Signup');
    const events = userEvent.setup();
    renderSignup();
    await screen.findByText('probe: signed out');

    const onLine = jest.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      await fill(events, account);
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(/^You're offline\. Check your connection and try again\.$/);
      expect(alert.tagName).toBe('P');
      expect(alert.closest('form')?.firstElementChild).toBe(alert); // at the top of the form
    } finally {
      onLine.mockRestore();
    }
    for (const label of ['Full Name', 'Email', 'Password']) expect(screen.getByLabelText(label)).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
    expect(await fetchCurrentUser()).toBeNull();
  });

  it('does not send a password the strength hint calls refused: says why once, at the field, with the focus there', async () => {
    const account = newAccount('Weak Password');
    const events = userEvent.setup();
    renderSignup();
    await screen.findByText('probe: signed out');
    await events.type(screen.getByLabelText('Full Name'), account.fullName);
    await events.type(screen.getByLabelText('Email'), account.email);
    const password = screen.getByLabelText('Password');
    await events.type(password, 'password123');
    // The hint has its verdict: refused.
    expect(await screen.findByText('Strength: Very weak')).toBeInTheDocument();
    expect(screen.getAllByText(WEAK_PASSWORD_MESSAGE)).toHaveLength(1);

    const requests = jest.spyOn(XMLHttpRequest.prototype, 'open');
    await events.click(screen.getByRole('button', { name: 'Sign Up' }));

    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(password).toHaveFocus();
    expect(password).toHaveAccessibleDescription(expect.stringContaining(WEAK_PASSWORD_MESSAGE));
    // Once: at the field; the hint keeps its meter and label but does not repeat the sentence.
    expect(screen.getAllByText(WEAK_PASSWORD_MESSAGE)).toHaveLength(1);
    expect(screen.getByText('Strength: Very weak')).toBeInTheDocument();
    expect(requests).not.toHaveBeenCalled();
    requests.mockRestore();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
    expect(await fetchCurrentUser()).toBeNull();

    // Typing takes the refusal away; a good password is sent and signs up.
    await events.clear(password);
    await events.type(password, account.password);
    expect(password).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText(WEAK_PASSWORD_MESSAGE)).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('home of Weak Password')).toBeInTheDocument();
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
    // The password rules show from the start, tied to the field.
    expect(password).toHaveAccessibleDescription('Use at least 8 characters.');
    expect(screen.getByText('Use at least 8 characters.').id).toBe(password.getAttribute('aria-describedby'));
    expect(password).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('heading', { level: 1 })).toHaveAttribute('id', 'signup-title');

    await events.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(fullName).toBeInvalid();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
  });

  it('puts the focus in Full Name as it opens, and shows the password on demand', async () => {
    const events = userEvent.setup();
    renderSignup();
    await waitFor(() => expect(screen.getByLabelText('Full Name')).toHaveFocus());
    const password = screen.getByLabelText('Password');
    await events.type(password, 'violet tractor');
    await events.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(password).toHaveFocus();
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
