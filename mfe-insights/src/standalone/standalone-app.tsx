import { SignedInOnly, StandaloneFrame } from '@tm/remote-kit/standalone';
import InsightsPage from '../expose/insights-page';

/** The remote on its own (`pnpm --filter mfe-insights dev`, port from env REMOTE_PORT, the shell at env SHELL_URL). */
export function StandaloneApp() {
  return (
    <StandaloneFrame>
      <SignedInOnly purpose="the insights page">
        <InsightsPage />
      </SignedInOnly>
    </StandaloneFrame>
  );
}
