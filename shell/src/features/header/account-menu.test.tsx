import { logout } from '@tm/api-client';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signUpNewUser } from '@tm/web-test-support';
import { App } from '../../app/app';
import { serveCatalog, TODAYS_CATALOG } from '../../test/catalog';

/**
 * The header's account menu in the real shell against the real gateway. The remotes are not built into this
 * test, so /account shows the shell's fallback for the account screen: enough to see the route and its title.
 */
function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  return render(<App />);
}

describe('the account menu of the header', () => {
  beforeEach(() => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    serveCatalog(() => TODAYS_CATALOG);
  });
  afterEach(() => jest.restoreAllMocks());

  it('opens with who is signed in, closes on Escape with the focus back, and links to /account', async () => {
    const user = await signUpNewUser('Menu Person');
    const events = userEvent.setup();
    renderAt('/');
    const button = await screen.findByRole('button', { name: 'Account menu' });
    // The theme switch and the logout button stay as they were, around it.
    expect(screen.getByTitle('Switch to dark mode')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toHaveAttribute('title', 'Logout');
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await events.click(button);
    const popover = screen.getByRole('dialog', { name: 'Signed in as Menu Person' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', popover.id);
    expect(within(popover).getByText(user.email)).toBeInTheDocument();
    const link = within(popover).getByRole('link', { name: 'Account settings' });
    expect(link).toHaveAttribute('href', '/account');
    expect(link).toHaveFocus();

    await events.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();

    // A click outside closes it too.
    await events.click(button);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await events.click(document.body);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // The link goes to /account (signed in only, titled "Account"), and the navigation closes the menu.
    await events.click(button);
    await events.click(screen.getByRole('link', { name: 'Account settings' }));
    await waitFor(() => expect(window.location.pathname).toBe('/account'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Account · Task Manager'));
    expect(await screen.findByText('The account screen could not be loaded.')).toBeInTheDocument();
  });

  it('is not there when signed out, and /account sends a visitor to /login', async () => {
    await logout().catch(() => undefined);
    renderAt('/account');
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(await screen.findByText('The sign-in screen could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Account menu' })).not.toBeInTheDocument();
  });
});
