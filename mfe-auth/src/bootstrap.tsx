import '@tm/design-tokens/tokens.css';
import { OfflineBanner, PlatformProviders } from '@tm/web-platform';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/app';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The same providers as the shell (one platform package), so standalone behaves as inside the shell.
createRoot(root).render(
  <StrictMode>
    <PlatformProviders>
      <BrowserRouter>
        <OfflineBanner />
        <main>
          <App />
        </main>
      </BrowserRouter>
    </PlatformProviders>
  </StrictMode>,
);
