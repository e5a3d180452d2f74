import { logout } from '@tm/api-client';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signUpNewUser } from '@tm/web-test-support';
import { App } from '../../app/app';
import { stubDialog } from '../../test/browser-stubs';
import { serveCatalog, TODAYS_CATALOG } from '../../test/catalog';

/** The About dialog of the real shell: reachable signed out (header) and signed in (account menu). */
function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  return render(<App />);
}

/** The dialog's rows of one part (the shell or a remote), as "term: value". */
function rowsOf(part: HTMLElement): string[] {
  return within(part)
    .getAllByRole('term')
    .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
}

describe('the About dialog', () => {
  let unstub: () => void;
  beforeEach(() => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    serveCatalog(() => TODAYS_CATALOG);
    unstub = stubDialog();
  });
  afterEach(() => {
    unstub();
    jest.restoreAllMocks();
  });

  it('lists the shell and each remote of the catalog, closes on Escape and gives the focus back (signed out)', async () => {
    await logout().catch(() => undefined);
    const events = userEvent.setup();
    renderAt('/login');
    await screen.findByText('The sign-in screen could not be loaded.');
    const about = screen.getByRole('button', { name: 'About Task Manager' });
    expect(about).toHaveAttribute('aria-haspopup', 'dialog');
    await events.click(about);

    const dialog = await screen.findByRole('dialog', { name: 'About Task Manager' });
    expect(dialog).toHaveAttribute('open');
    // Plain words first; the builds wait, folded, under "Technical details".
    expect(within(dialog).getByText(/A simple to-do list/)).toBeInTheDocument();
    expect(within(dialog).getByText(/You are using version/)).toHaveTextContent('You are using version dev. If something looks out of date or wrong, reload the page');
    const details = within(dialog).getByText('Technical details').closest('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    // Unbuilt, the shell's version and build are "dev" (a build writes them in: shell/rspack.config.mjs).
    expect(rowsOf(within(dialog).getByRole('region', { name: 'Shell' }))).toEqual(['Version: dev', 'Build: dev']);
    const auth = within(dialog).getByRole('region', { name: 'mfe_auth' });
    expect(rowsOf(auth)).toEqual(['Version: 0.1.0', 'Build: auth-build-1', 'Manifest: /remotes/auth/mf-manifest.json']);
    // The remotes are not built into these tests: none of them loaded.
    expect(within(auth).getByText('Not loaded')).toBeInTheDocument();
    expect(rowsOf(within(dialog).getByRole('region', { name: 'mfe_tasks' }))).toEqual(['Version: 0.1.0', 'Build: tasks-build-1', 'Manifest: /remotes/tasks/mf-manifest.json']);
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    await events.click(within(dialog).getByText('Technical details'));
    expect(details.open).toBe(true);

    await events.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'About Task Manager' })).not.toBeInTheDocument());
    expect(about).toHaveFocus();
  });

  it('opens from the account menu when signed in, and Close gives the focus back to the menu button', async () => {
    await signUpNewUser('About Person');
    const events = userEvent.setup();
    renderAt('/');
    const menu = await screen.findByRole('button', { name: 'Account menu' });
    // Signed in, About lives in the account menu: the header keeps its three buttons on a phone.
    expect(screen.queryByRole('button', { name: 'About Task Manager' })).not.toBeInTheDocument();
    await events.click(menu);
    await events.click(within(screen.getByRole('dialog', { name: /Signed in as/ })).getByRole('button', { name: 'About Task Manager' }));

    const dialog = await screen.findByRole('dialog', { name: 'About Task Manager' });
    expect(screen.queryByRole('dialog', { name: /Signed in as/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: 'mfe_tasks' })).toBeInTheDocument();
    await events.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'About Task Manager' })).not.toBeInTheDocument());
    expect(menu).toHaveFocus();
  });
});
