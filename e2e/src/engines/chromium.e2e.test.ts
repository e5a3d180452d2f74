import { chromiumMissing, startChromium } from './chromium.js';
import { describeEngine, useApp } from './engine.js';
import { itWalks } from './walk.js';

// The smoke walk (walk.ts) in Debian's Chromium as well, so the three engines' walks compare step by step.
describeEngine('the smoke walk in Chromium', chromiumMissing(), () => {
  const app = useApp();
  itWalks(startChromium, app);
});
