import { render, screen } from '@testing-library/react';
import { signUpNewUser } from '@tm/web-test-support';
import { serveCatalog, TODAYS_CATALOG } from '../test/catalog';
import { App } from './app';

// A catalog without the home screen (`/`), as while a release rolls out without the task screen's remote: the
// shell reads the catalog once per page load, so this page load (this file) has that catalog from the start.
describe('a catalog without a home screen', () => {
  beforeEach(() => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { mfe_tasks: _missing, ...others } = TODAYS_CATALOG.remotes;
    serveCatalog(() => ({ remotes: others }));
  });
  afterEach(() => jest.restoreAllMocks());

  it('says so at /, with Retry and the way to a screen there is, instead of a blank page', async () => {
    await signUpNewUser();
    window.history.replaceState(null, '', '/');
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'This screen is not available right now.' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to another screen' })).toHaveAttribute('href', '/account');
  });
});
