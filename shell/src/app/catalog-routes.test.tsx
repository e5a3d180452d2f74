import { logout } from '@tm/api-client';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signUpNewUser } from '@tm/web-test-support';
import { serveCatalog, TODAYS_CATALOG } from '../test/catalog';
import { App } from './app';

/**
 * Routes come with the remote: a third remote in the catalog brings a signed-in page and a
 * public one, each with a header link, and the shell serves them with no change to its code.
 */
const CATALOG = {
  remotes: {
    ...TODAYS_CATALOG.remotes,
    mfe_tasks: { ...TODAYS_CATALOG.remotes.mfe_tasks, routes: [{ path: '/', module: './TaskListPage', guard: 'signed-in', title: 'Tasks', name: 'task list', headerLink: { label: 'Tasks' } }] },
    mfe_stats: {
      manifest: 'https://stats.example.test/mf-manifest.json',
      routes: [
        {
          path: '/stats',
          module: './StatsPage',
          guard: 'signed-in',
          title: 'Statistics',
          name: 'statistics screen',
          headerLink: { label: 'Stats' },
          accountMenuLink: { label: 'My statistics' },
        },
        { path: '/help', module: './HelpPage', guard: 'public', title: 'Help', name: 'help page', headerLink: { label: 'Help' } },
      ],
    },
  },
};

function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  return render(<App />);
}

const linkNames = () => within(screen.getByRole('navigation', { name: 'Screens' })).getAllByRole('link').map((link) => link.textContent);

describe('routes built from the remote catalog', () => {
  beforeEach(() => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    serveCatalog(() => CATALOG);
  });
  afterEach(() => jest.restoreAllMocks());

  it('serves a public route of a new remote to a visitor, with its title, fallback and only the links a visitor may open', async () => {
    await logout().catch(() => undefined);
    renderAt('/help');
    expect(await screen.findByText('The help page could not be loaded.')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/help');
    await waitFor(() => expect(document.title).toBe('Help · Task Manager'));
    expect(linkNames()).toEqual(['Help']);
    expect(screen.getByRole('link', { name: 'Help' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('sends a visitor from a signed-in route of a new remote to /login', async () => {
    await logout().catch(() => undefined);
    renderAt('/stats');
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(await screen.findByText('The sign-in screen could not be loaded.')).toBeInTheDocument();
  });

  it('shows a signed-in user the links in catalog order, marks the current one, and keeps unknown paths going to /', async () => {
    await signUpNewUser('Catalog User');
    const { unmount } = renderAt('/stats');
    expect(await screen.findByText('The statistics screen could not be loaded.')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Statistics · Task Manager'));
    expect(linkNames()).toEqual(['Tasks', 'Stats', 'Help']);
    expect(screen.getByRole('link', { name: 'Stats' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Tasks' })).not.toHaveAttribute('aria-current');

    await userEvent.click(screen.getByRole('link', { name: 'Tasks' }));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(await screen.findByText('The task list could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Tasks' })).toHaveAttribute('aria-current', 'page');
    unmount();

    renderAt('/no/such/page');
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(await screen.findByText('The task list could not be loaded.')).toBeInTheDocument();
  });

  it("fills the account menu with the links the catalog's signed-in routes declare, in its order", async () => {
    await signUpNewUser('Menu User');
    renderAt('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('dialog', { name: /Signed in as/ });
    const items = within(menu).getAllByRole('link').map((link) => link.textContent);
    expect(items).toEqual(['Account settings', 'My statistics']);
    expect(within(menu).getByRole('link', { name: 'Account settings' })).toHaveFocus();
    await userEvent.click(within(menu).getByRole('link', { name: 'My statistics' }));
    await waitFor(() => expect(window.location.pathname).toBe('/stats'));
  });
});
