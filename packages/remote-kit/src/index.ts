// What an exposed module needs (no side effects: it is part of every page's first load). The standalone
// frame and bootstrap are @tm/remote-kit/standalone, which only a remote's own page loads.
export { exposePage, type ExposedModules, type ExposedPage, type ExposedPageModule, type ExposePageOptions, type PageScreen } from './exposed-page.js';
