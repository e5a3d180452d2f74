import { describeEngine, useApp } from './engine.js';
import { firefoxMissing, startFirefox } from './firefox.js';
import { itWalks } from './walk.js';

// The smoke walk (walk.ts) in Debian's Firefox ESR, headless, over WebDriver BiDi (puppeteer-core).
describeEngine('the smoke walk in Firefox ESR', firefoxMissing(), () => {
  const app = useApp();
  itWalks(startFirefox, app);
});
