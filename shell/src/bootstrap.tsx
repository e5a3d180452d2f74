import '@tm/design-tokens/tokens.css';
import './app/app.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { registerServiceWorker } from './features/offline-cache/service-worker';
import { pageInSample } from './features/vitals/sampling';

// Read before the app sends the page anywhere else: the route the vitals of this page load are filed under.
const landingPath = location.pathname;

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const root = createRoot(container);
// A transition: React renders the first screen in slices, yielding to the browser between them, instead of
// one long task (less blocking time on a slow phone). The loading screen from the HTML stays
// until React's own is ready to take its place.
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
registerServiceWorker();
// A sampled share of page loads reports its Core Web Vitals (features/vitals). The reporter and
// `web-vitals` load once the page has loaded, outside the first load (docs/ARCHITECTURE.md "Delivery to the browser").
if (pageInSample(process.env.RUM_SAMPLE_RATE)) {
  // A reporter that cannot load (offline, a release under way) is no matter for the page.
  const report = () => setTimeout(() => void import('./app/report-vitals').then(({ reportVitals }) => reportVitals(landingPath), () => undefined));
  if (document.readyState === 'complete') report();
  else addEventListener('load', report, { once: true });
}
