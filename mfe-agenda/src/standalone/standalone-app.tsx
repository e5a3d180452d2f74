import { SignedInOnly, StandaloneFrame } from '@tm/remote-kit/standalone';
import AgendaPage from '../expose/agenda-page';

/** The remote on its own (`pnpm --filter mfe-agenda dev`, port from env REMOTE_PORT, the shell at env SHELL_URL). */
export function StandaloneApp() {
  return (
    <StandaloneFrame>
      <SignedInOnly purpose="the agenda page">
        <AgendaPage />
      </SignedInOnly>
    </StandaloneFrame>
  );
}
