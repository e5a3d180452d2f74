/**
 * One jest run over every package. TypeScript is transpiled by SWC (type checking is `pnpm typecheck`);
 * workspace packages resolve to their sources so tests never run against a stale build.
 */
const path = require('node:path');

const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }];

/** @param {string} dir */
function project(dir) {
  return {
    displayName: dir,
    rootDir: `<rootDir>/${dir}`,
    testEnvironment: 'node',
    transform: { '^.+\\.tsx?$': swc },
    moduleNameMapper: {
      '^@tm/(contracts|service-kit|test-support)$': path.join(__dirname, 'packages/$1/src/index.ts'),
      '^@tm/service-kit/errors$': path.join(__dirname, 'packages/service-kit/src/errors.ts'),
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    testMatch: ['<rootDir>/src/**/*.test.ts'],
    setupFiles: [path.join(__dirname, 'jest.setup.js')],
  };
}

/** @type {import('jest').Config} */
module.exports = {
  projects: ['packages/contracts', 'packages/service-kit', 'svc-users', 'svc-todos', 'gateway'].map(project),
  testTimeout: 30_000,
};
