import { render, screen } from '@testing-library/react';
import { LoginErrorBanner } from './login-error-banner';

/** What axios rejects with: `response` is absent when the request never got an answer. */
function axiosLikeError(response?: { status: number; data: unknown; headers?: Record<string, string> }) {
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

  it('shows the server\'s "Too many attempts" sentence for a 429', () => {
    const data = { message: 'Too many attempts. Try again in 4 minutes.', code: 'RATE_LIMITED' };
    render(<LoginErrorBanner error={axiosLikeError({ status: 429, data, headers: { 'retry-after': '200' } })} />);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Too many attempts\. Try again in 4 minutes\.$/);
  });

  it('builds the same sentence from Retry-After when a 429 has no message: minutes rounded up, seconds under a minute', () => {
    const cases: [string, string][] = [
      ['200', 'Too many attempts. Try again in 4 minutes.'],
      ['60', 'Too many attempts. Try again in 1 minute.'],
      ['61', 'Too many attempts. Try again in 2 minutes.'],
      ['45', 'Too many attempts. Try again in 45 seconds.'],
      ['1', 'Too many attempts. Try again in 1 second.'],
    ];
    for (const [retryAfter, sentence] of cases) {
      const { unmount } = render(<LoginErrorBanner error={axiosLikeError({ status: 429, data: '', headers: { 'retry-after': retryAfter } })} />);
      expect(screen.getByRole('alert')).toHaveTextContent(sentence);
      unmount();
    }
    // Without the header either, the fallback of PRODUCT §2.
    render(<LoginErrorBanner error={axiosLikeError({ status: 429, data: {} })} />);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Login failed$/);
  });
});
