/**
 * The k6 runs of deploy/k6 (deploy/checks/k6-run.test.ts), in a jest run of their own: `npm test` runs them
 * after every other jest suite, alone on the machine, because their thresholds are latencies (p95 of task
 * calls and sign-ins) and suites running beside them on a 2-core machine would measure the machine, not the
 * app. The deploy project of the root config leaves that file out.
 */
const path = require('node:path');
const { projects } = require('../../jest.config.js');

const deploy = projects.find((project) => project.displayName === 'deploy');

/** @type {import('jest').Config} */
module.exports = {
  ...deploy,
  displayName: 'k6',
  testMatch: ['<rootDir>/checks/k6-run.test.ts'],
  testPathIgnorePatterns: [],
  rootDir: path.join(__dirname, '../../deploy'),
  maxWorkers: 1,
};
