import { fetchCurrentUser, forgotPassword, login, logout } from '@tm/api-client';
import { PlatformProviders } from '@tm/web-platform';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { newAccount, signUpNewUser } from '@tm/web-test-support';
import toast from 'react-hot-toast';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { App } from '../../../app/app';
import { outboxFor, resetLinkFor } from '../../../test/outbox';

/**
 * "Forgot password?" and the page of a reset link (docs/PRODUCT.md §10.10) inside the standalone app, against
 * the real gateway and services; the links come from svc-users' local outbox, as from a mailbox.
 */

const NEW_PASSWORD = 'turquoise walrus plays the oboe';
const SENT = 'If an account exists for that address, we sent it a link to choose a new password. The link works once, for 30 minutes.';

/** Where the router is (path and query), as the address bar would show it. */
function AddressBar() {
  const location = useLocation();
  return <output aria-label="address">{`${location.pathname}${location.search}`}</output>;
}

function renderApp(route: string) {
  return render(
    <PlatformProviders>
      <MemoryRouter initialEntries={[route]}>
        <App />
        <AddressBar />
      </MemoryRouter>
    </PlatformProviders>,
  );
}

const address = () => screen.getByLabelText('address').textContent;

/** The answer a form gives in place of itself: the status region holding `text` (not the toaster's). */
async function answer(text: string | RegExp): Promise<HTMLElement> {
  const found = await screen.findByText(text, {}, { timeout: 5000 });
  const region = found.closest<HTMLElement>('[role="status"]');
  if (!region) throw new Error('the answer is not in a status region');
  return region;
}

/** A user who is signed out, with a reset link in their mailbox. */
async function userWithLink() {
  const user = await signUpNewUser('Forgetful Person');
  await logout();
  await forgotPassword({ email: user.email });
  return { user, link: await resetLinkFor(user.email) };
}

beforeEach(async () => {
  toast.remove();
  await logout().catch(() => undefined);
});

describe('Forgot password? (the sign-in screen\'s link and its screen)', () => {
  it('takes the email typed on the sign-in screen along (not in the address), focuses it, and answers the same for any address', async () => {
    const user = await signUpNewUser('Link Asker');
    await logout();
    const events = userEvent.setup();
    renderApp('/login');
    const email = await screen.findByLabelText('Email');
    await waitFor(() => expect(email).toHaveFocus());
    await events.type(email, user.email);
    await events.click(screen.getByRole('link', { name: 'Forgot password?' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeInTheDocument();
    expect(address()).toBe('/forgot-password');
    const field = screen.getByLabelText('Email');
    expect(field).toHaveValue(user.email);
    await waitFor(() => expect(field).toHaveFocus());
    await events.click(screen.getByRole('button', { name: 'Send link' }));

    const done = await answer(SENT);
    expect(done).toHaveTextContent(`Sent to ${user.email}`);
    await waitFor(() => expect(done).toHaveFocus());
    expect((await resetLinkFor(user.email)).pathname).toBe('/reset-password');

    // Another address, without an account: the same answer, and no mail.
    await events.click(screen.getByRole('button', { name: 'Send another link' }));
    const again = screen.getByLabelText('Email');
    await events.clear(again);
    const nobody = newAccount().email;
    await events.type(again, nobody);
    await events.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await answer(SENT)).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(outboxFor(nobody)).toEqual([]);
  });

  it('says at the field what is wrong with the address, and sends nothing', async () => {
    const events = userEvent.setup();
    renderApp('/forgot-password');
    const field = await screen.findByLabelText('Email');
    // An address the browser's own check lets through (no dot after the @), the server's refuses.
    await events.type(field, 'someone@localhost');
    await events.click(screen.getByRole('button', { name: 'Send link' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription('Enter a valid email address');
    expect(screen.queryByText(SENT)).not.toBeInTheDocument();
  });
});

describe('the page of a reset link', () => {
  it('takes the token out of the address at once, sets the new password once, and sends the person to sign in', async () => {
    const { user, link } = await userWithLink();
    const events = userEvent.setup();
    renderApp(`${link.pathname}${link.search}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Choose a new password' })).toBeInTheDocument();
    await waitFor(() => expect(address()).toBe('/reset-password'));
    const field = screen.getByLabelText('New password');
    expect(field).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();

    await events.type(field, 'password123');
    await events.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText(/too common or easy to guess/, { selector: '.auth-form__field-error' })).toBeInTheDocument();

    await events.clear(field);
    await events.type(field, NEW_PASSWORD);
    await events.click(screen.getByRole('button', { name: 'Set new password' }));
    const done = await answer('Your password was changed. Sign in with your new password.');
    await waitFor(() => expect(done).toHaveFocus());

    await expect(login({ email: user.email, password: user.password })).rejects.toMatchObject({ response: { status: 401 } });
    expect((await login({ email: user.email, password: NEW_PASSWORD })).user.email).toBe(user.email);
    await logout();

    await events.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeInTheDocument();
  });

  it('says when the link no longer works (used), with a way to ask for a new one', async () => {
    const { link } = await userWithLink();
    const events = userEvent.setup();
    const first = renderApp(`${link.pathname}${link.search}`);
    await events.type(await screen.findByLabelText('New password'), NEW_PASSWORD);
    await events.click(screen.getByRole('button', { name: 'Set new password' }));
    await answer(/Your password was changed/);
    first.unmount();

    renderApp(`${link.pathname}${link.search}`);
    await events.type(await screen.findByLabelText('New password'), 'a second new passphrase please');
    await events.click(screen.getByRole('button', { name: 'Set new password' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This link has expired or was already used. Ask for a new one.');
    await events.click(screen.getByRole('link', { name: 'Ask for a new link' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeInTheDocument();
  });

  it('says a link without its token is not complete, and changes nothing', async () => {
    renderApp('/reset-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is not complete. Open the link from the email again, or ask for a new one.');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toBeInTheDocument();
  });

  it('signs this browser out when it was signed in to the account whose password was reset', async () => {
    const user = await signUpNewUser('Signed In Resetter');
    await forgotPassword({ email: user.email });
    const link = await resetLinkFor(user.email);
    const events = userEvent.setup();
    renderApp(`${link.pathname}${link.search}`);
    await events.type(await screen.findByLabelText('New password'), NEW_PASSWORD);
    await events.click(screen.getByRole('button', { name: 'Set new password' }));
    await answer(/Your password was changed/);
    expect(await fetchCurrentUser()).toBeNull();
  });
});
