import { logout } from '@tm/api-client';
import { signUpNewUser } from '@tm/web-test-support';
import { render, screen, within } from '@testing-library/react';
import { SHELL_URL, SignedInOnly, StandaloneFrame } from './standalone';

/** A remote's standalone app as the scaffold writes it: the frame around a signed-in-only page. */
function renderStandalone() {
  return render(
    <StandaloneFrame>
      <SignedInOnly purpose="the statistics">
        <h1>Statistics</h1>
      </SignedInOnly>
    </StandaloneFrame>,
  );
}

describe('the standalone frame of a remote', () => {
  it('shows the page inside <main> to a signed-in user', async () => {
    await signUpNewUser('Ada Lovelace');
    renderStandalone();
    expect(await within(screen.getByRole('main')).findByRole('heading', { name: 'Statistics' })).toBeInTheDocument();
  });

  it('sends a signed-out visitor to the shell, at SHELL_URL (http://localhost:3000 unless the build says otherwise)', async () => {
    jest.spyOn(console, 'info').mockImplementation(() => undefined);
    await logout();
    expect(SHELL_URL).toBe('http://localhost:3000');
    renderStandalone();
    const notice = await screen.findByText(/Sign in through the shell/);
    expect(notice).toHaveTextContent('Sign in through the shell (http://localhost:3000) to use the statistics standalone.');
    expect(within(notice).getByRole('link')).toHaveAttribute('href', 'http://localhost:3000');
    expect(screen.queryByRole('heading', { name: 'Statistics' })).not.toBeInTheDocument();
  });
});
