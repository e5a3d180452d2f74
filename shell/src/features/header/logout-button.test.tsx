import { fetchCurrentUser } from '@tm/api-client';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { keepDraft, readDraft } from '@tm/web-platform';
import { signUpNewUser } from '@tm/web-test-support';
import { App } from '../../app/app';
import { stubDialog } from '../../test/browser-stubs';
import { serveCatalog, TODAYS_CATALOG } from '../../test/catalog';
import { LOGOUT_CONSEQUENCE, LOGOUT_QUESTION } from './logout-confirm';

/** The header's logout in the real shell against the real gateway (the remotes show the shell's fallback). */
function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  return render(<App />);
}

describe('the header’s logout', () => {
  let unstub: () => void;
  beforeEach(() => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    serveCatalog(() => TODAYS_CATALOG);
    unstub = stubDialog();
  });
  afterEach(() => {
    unstub();
    sessionStorage.clear();
    jest.restoreAllMocks();
  });

  it('signs out at once when nothing is being written', async () => {
    await signUpNewUser('Nothing Written');
    renderAt('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(await fetchCurrentUser()).toBeNull();
  });

  it('asks first when this person has a draft, Cancel (focused) keeps everything, "Sign out" signs out and removes it', async () => {
    const user = await signUpNewUser('Half Written');
    keepDraft(user._id, 'new-task', 'Call the plum');
    const events = userEvent.setup();
    renderAt('/');
    const logout = await screen.findByRole('button', { name: 'Logout' });
    expect(logout).toHaveAttribute('title', 'Logout');

    await events.click(logout);
    const dialog = await screen.findByRole('alertdialog', { name: LOGOUT_QUESTION });
    expect(dialog).toHaveAccessibleDescription(LOGOUT_CONSEQUENCE);
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await events.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(logout).toHaveFocus();
    expect(window.location.pathname).toBe('/');
    expect(await fetchCurrentUser()).toMatchObject({ _id: user._id });
    expect(readDraft(user._id, 'new-task')).toBe('Call the plum');

    await events.click(logout);
    await events.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(await fetchCurrentUser()).toBeNull();
    expect(Object.keys(sessionStorage).filter((key) => key.startsWith('tm.draft.'))).toEqual([]);
  });

  it('does not ask for someone else’s draft, which the tab drops once this person is known to be signed in', async () => {
    await signUpNewUser('Someone Else’s Tab');
    keepDraft('aaaaaaaaaaaaaaaaaaaaaaaa', 'new-task', 'Not mine');
    renderAt('/');
    const logout = await screen.findByRole('button', { name: 'Logout' });
    expect(Object.keys(sessionStorage).filter((key) => key.startsWith('tm.draft.'))).toEqual([]);
    await userEvent.click(logout);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });
});
