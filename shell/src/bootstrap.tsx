import '@tm/design-tokens/tokens.css';
import './app/app.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { registerServiceWorker } from './features/offline-cache/service-worker';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const root = createRoot(container);
// A transition: React renders the first screen in slices, yielding to the browser between them, instead of
// one long task (issue #17: less blocking time on a slow phone). The loading screen from the HTML stays
// until React's own is ready to take its place.
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
registerServiceWorker();
