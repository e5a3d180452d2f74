import { describeEngine, useApp } from './engine.js';
import { itWalks } from './walk.js';
import { startWebKit, webkitMissing } from './webkit.js';

// The smoke walk (walk.ts) in WebKitGTK: Debian's MiniBrowser driven by WebKitWebDriver over WebDriver classic
// (selenium-webdriver), on an Xvfb display the engine starts and stops.
describeEngine('the smoke walk in WebKitGTK', webkitMissing(), () => {
  const app = useApp();
  itWalks(startWebKit, app);
});
