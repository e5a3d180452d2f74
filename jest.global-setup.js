// Component tests of the frontends run in jsdom against the REAL gateway and services (no mocked API):
// this starts them once per jest run on a fixed loopback port that jsdom uses as its origin, so the
// app's same-origin XHR, cookies and XSRF header work exactly as in a browser.
const { startProcess, tempDir } = require('./packages/test-support/dist/index.js');
const { WEB_TEST_PORT } = require('./jest.web-origin.js');

module.exports = async function globalSetup() {
  const data = tempDir('tm-web-');
  const env = {
    DATA_DIR: data.dir,
    INTERNAL_SECRET: 'web-test-internal-secret-0123456789abcdef',
    SESSION_KEYS: 'web-test-session-key-0123456789abcdef0123',
    AUTH_RATE_LIMIT: '0',
  };
  const users = await startProcess('svc-users', env);
  const todos = await startProcess('svc-todos', env);
  const gateway = await startProcess('gateway', { ...env, PORT: String(WEB_TEST_PORT), USERS_URL: users.url, TODOS_URL: todos.url });
  globalThis.__TM_WEB_STACK__ = { processes: [gateway, users, todos], data };
};
