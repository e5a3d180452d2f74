import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Layers of a service (CONVENTIONS §6): routes → service → repository. Enforced here, not by memory. */
const storeDrivers = ['better-sqlite3', 'mongodb', 'bson'].map((name) => ({
  name,
  message: 'Only a store adapter (*.store.ts) may use a database driver.',
}));
const koaPackages = ['koa', '@koa/router', '@koa/bodyparser', 'koa-session'].map((name) => ({
  name,
  message: 'Only routes, middleware and app wiring know Koa; services are plain TypeScript.',
}));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '.data/**', '**/.test-data/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.service.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...storeDrivers,
            ...koaPackages,
            { name: '@tm/service-kit', message: 'Services import typed errors from @tm/service-kit/errors (no Koa).' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.routes.ts', '**/*.middleware.ts', '**/app.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: storeDrivers }] },
  },
  {
    files: ['**/*.store.ts', '**/*.repository.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: koaPackages }] },
  },
  {
    files: ['**/*.test.ts', 'scripts/**', '**/bench/**', '**/*.config.*', 'jest.setup.js'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
