/**
 * One jest run over every package. TypeScript is transpiled by SWC (type checking is `pnpm typecheck`);
 * workspace packages resolve to their sources so tests never run against a stale build. Backend projects
 * run in Node; frontend projects in jsdom whose origin is the real test gateway (config/jest/global-setup.js).
 */
const { readdirSync, existsSync } = require('node:fs');
const path = require('node:path');
/** The setup files, stubs and the e2e configuration live in config/jest/. */
const support = path.join(__dirname, 'config/jest');
const { WEB_TEST_ORIGIN } = require('./config/jest/web-origin.js');

const swc = (tsx) => [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx },
      target: 'es2022',
      transform: tsx ? { react: { runtime: 'automatic' } } : undefined,
    },
    module: { type: 'commonjs' },
  },
];

const moduleNameMapper = {
  '^@tm/(contracts|service-kit|test-support|password-policy|sync)$': path.join(__dirname, 'packages/$1/src/index.ts'),
  '^@tm/service-kit/(errors|sqlite|mongo)$': path.join(__dirname, 'packages/service-kit/src/$1.ts'),
  '^@tm/contracts/openapi$': path.join(__dirname, 'packages/contracts/src/openapi.ts'),
  '^@tm/contracts/repeat$': path.join(__dirname, 'packages/contracts/src/todo-repeat.ts'),
  '^@tm/api-client$': path.join(__dirname, 'packages/api-client/src/index.ts'),
  '^@tm/api-client/early$': path.join(__dirname, 'packages/api-client/src/early-store.ts'),
  '^@tm/web-platform$': path.join(__dirname, 'packages/web-platform/src/index.ts'),
  '^@tm/web-test-support$': path.join(__dirname, 'packages/web-test-support/src/index.tsx'),
  '^@tm/remote-kit$': path.join(__dirname, 'packages/remote-kit/src/index.ts'),
  '^@tm/remote-kit/standalone$': path.join(__dirname, 'packages/remote-kit/src/standalone.tsx'),
  '\\.css$': path.join(support, 'style-stub.js'),
  '\\.(svg|mp3|png)$': path.join(support, 'asset-stub.js'),
  '^(\\.{1,2}/.*)\\.js$': '$1',
};

/** @param {string} dir */
function nodeProject(dir) {
  return {
    displayName: dir,
    rootDir: `<rootDir>/${dir}`,
    testEnvironment: 'node',
    transform: { '^.+\\.tsx?$': swc(false) },
    moduleNameMapper,
    testMatch: ['<rootDir>/src/**/*.test.ts'],
    setupFiles: [path.join(support, 'setup.js')],
  };
}

/** Checks of the deployment files (k6 scripts, compose, Kubernetes manifests, Dockerfiles). */
const deployProject = {
  displayName: 'deploy',
  rootDir: '<rootDir>/deploy',
  testEnvironment: 'node',
  transform: { '^.+\\.tsx?$': swc(false) },
  moduleNameMapper,
  testMatch: ['<rootDir>/checks/**/*.test.ts'],
  // The k6 runs measure latencies: `npm test` runs them alone, after this (config/jest/k6.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/checks/k6-run\\.test\\.ts$'],
  setupFiles: [path.join(support, 'setup.js')],
};

/** @param {string} dir */
function webProject(dir) {
  return {
    displayName: dir,
    rootDir: `<rootDir>/${dir}`,
    testEnvironment: 'jsdom',
    testEnvironmentOptions: { url: `${WEB_TEST_ORIGIN}/` },
    transform: { '^.+\\.tsx?$': swc(true) },
    moduleNameMapper,
    testMatch: ['<rootDir>/src/**/*.test.ts?(x)'],
    setupFilesAfterEnv: [path.join(support, 'setup-web.js')],
  };
}

/**
 * The remotes: every top-level mfe-* folder with a package.json, found when jest loads this file, so a new
 * remote (`pnpm new:remote`) is tested with no edit here.
 */
const remotes = readdirSync(__dirname, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && /^mfe-[a-z0-9-]+$/.test(entry.name) && existsSync(path.join(__dirname, entry.name, 'package.json')))
  .map((entry) => entry.name)
  .sort();

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    ...['packages/contracts', 'packages/service-kit', 'packages/password-policy', 'packages/sync', 'packages/build-config', 'svc-users', 'svc-todos', 'gateway'].map(nodeProject),
    ...['packages/api-client', 'packages/web-platform', 'packages/remote-kit', 'shell', ...remotes].map(webProject),
    deployProject,
  ],
  globalSetup: path.join(support, 'global-setup.js'),
  globalTeardown: path.join(support, 'global-teardown.js'),
  testTimeout: 30_000,
  // Two workers on the 2-core build machines (jest's default there is one): most suites wait on real
  // processes, sockets and disks rather than compute, so two at a time nearly halve the run. The k6 runs,
  // which measure latency, are not in this run (config/jest/k6.config.js), nor are the browser tests.
  maxWorkers: 2,
};
