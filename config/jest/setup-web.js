require('@testing-library/jest-dom');

// jsdom implements no media queries: answer "no match" (wide screen, motion allowed) unless a test
// installs its own window.matchMedia.
if (typeof globalThis.window !== 'undefined' && !globalThis.window.matchMedia) {
  globalThis.window.matchMedia = (query) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  });
}

// jsdom lacks the encoding API the federation runtime and the router use; Node's is the same standard.
const util = require('node:util');
globalThis.TextEncoder ??= util.TextEncoder;
globalThis.TextDecoder ??= util.TextDecoder;

// Waits in component tests cover real calls to the gateway (password hashing included) on a busy machine.
require('@testing-library/react').configure({ asyncUtilTimeout: 5000 });
