import { mountStandalone, StandaloneFrame } from '@tm/remote-kit/standalone';
import { App } from './app/app';

// The same providers as the shell (one platform package), so standalone behaves as inside the shell.
mountStandalone(
  <StandaloneFrame>
    <App />
  </StandaloneFrame>,
);
