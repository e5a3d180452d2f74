/**
 * Browser tests: playwright-core driving Debian's Chromium against the built app (see e2e/). One app for
 * the whole run (global setup), two test files at a time; each test opens its own browser profile.
 */
const path = require('node:path');

const root = path.join(__dirname, '../..');

/** @type {import('jest').Config} */
module.exports = {
  displayName: 'e2e',
  rootDir: path.join(root, 'e2e'),
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleNameMapper: {
    '^@tm/(contracts|test-support)$': path.join(root, 'packages/$1/src/index.ts'),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/src/**/*.e2e.test.ts'],
  globalSetup: path.join(root, 'e2e/global-setup.js'),
  globalTeardown: path.join(root, 'e2e/global-teardown.js'),
  // Two files at a time on the 2-core build machines: a browser test mostly waits (on the page, the network
  // emulation, the app), and every test opens its own browser profile and signs up its own user, so files
  // do not share state beyond the one app. The run takes about half as long.
  maxWorkers: 2,
  testTimeout: 60_000,
};
