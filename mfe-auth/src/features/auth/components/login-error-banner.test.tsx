import { render, screen } from '@testing-library/react';
import { LoginErrorBanner } from './login-error-banner';

/** What axios rejects with: `response` is absent when the request never got an answer. */
function axiosLikeError(response?: { status: number; data: unknown }) {
  return Object.assign(new Error(response ? 'Request failed' : 'Network Error'), { isAxiosError: true, response });
}

describe('LoginErrorBanner', () => {
  it('shows nothing without an error', () => {
    render(<LoginErrorBanner error={null} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows "Login failed" when the request got no answer (network error, timeout)', () => {
    render(<LoginErrorBanner error={axiosLikeError()} />);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Login failed$/);
  });

  it('shows "Login failed" when the answer has no message', () => {
    render(<LoginErrorBanner error={axiosLikeError({ status: 502, data: '<html>Bad gateway</html>' })} />);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Login failed$/);
  });

  it("shows the server's message when there is one", () => {
    render(<LoginErrorBanner error={axiosLikeError({ status: 429, data: { message: 'Too many attempts' } })} />);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Too many attempts$/);
  });
});
