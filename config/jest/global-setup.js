// Component tests of the frontends run in jsdom against the REAL gateway and services (no mocked API):
// this starts them once per jest run on a loopback port that jsdom uses as its origin, so the app's
// same-origin XHR, cookies and XSRF header work exactly as in a browser.
const { startStack } = require('../../packages/test-support/dist/index.js');
const { WEB_TEST_PORT } = require('./web-origin.js');

module.exports = async function globalSetup() {
  globalThis.__TM_WEB_STACK__ = await startStack({ port: WEB_TEST_PORT });
  // Its data folder, for the tests that read svc-users' local outbox (a reset link's mail) as a person reads mail.
  process.env.WEB_TEST_DATA_DIR = globalThis.__TM_WEB_STACK__.dataDir;
};
