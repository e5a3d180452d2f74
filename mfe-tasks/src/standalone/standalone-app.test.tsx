import { logout } from '@tm/api-client';
import { signUpNewUser } from '@tm/web-test-support';
import { render, screen, within } from '@testing-library/react';
import { StandaloneApp } from './standalone-app';

describe('the standalone app (pnpm --filter mfe-tasks dev)', () => {
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
  });

  it('shows the task list page inside <main> to a signed-in user', async () => {
    render(<StandaloneApp />);
    const main = screen.getByRole('main');
    expect(await within(main).findByText('Hello, Ada Lovelace!')).toBeInTheDocument();
    expect(within(main).getByRole('region', { name: 'Task Manager' })).toBeInTheDocument();
    expect(await within(main).findByText('No tasks')).toBeInTheDocument();
  });

  it('sends a signed-out visitor to the shell', async () => {
    jest.spyOn(console, 'info').mockImplementation(() => undefined);
    await logout();
    render(<StandaloneApp />);
    const notice = await screen.findByText(/Sign in through the shell/);
    expect(notice).toHaveTextContent('Sign in through the shell (http://localhost:3000) to use the task list standalone.');
    expect(within(notice).getByRole('link', { name: 'http://localhost:3000' })).toHaveAttribute('href', 'http://localhost:3000');
    expect(screen.queryByRole('heading', { name: 'Task Manager' })).not.toBeInTheDocument();
  });
});
