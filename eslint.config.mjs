import js from '@eslint/js';
import globals from 'globals';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Code rules. The layer rules (docs/ARCHITECTURE.md "Layers": which module may import which) are checked
 * over the whole import graph by dependency-cruiser (.dependency-cruiser.cjs), the second step of `pnpm lint`.
 */

/** The files of the tsconfig.web.json project. */
const WEB_FILES = [
  'shell/src/**',
  // Every remote (mfe-*), found by pattern: a new one gets the browser rules with no edit here.
  'mfe-*/src/**',
  'packages/api-client/src/**',
  'packages/web-platform/src/**',
  'packages/web-test-support/src/**',
  'packages/remote-kit/src/**',
  'web-env.d.ts',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '.data/**', '**/.test-data/**', '**/public/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      // Type-aware rules (no-floating-promises, no-misused-promises, ...): each file is checked in the
      // TypeScript project that owns it (the nearest tsconfig.json; the web apps in the block below).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
      // The reason this config is type-checked: a promise nobody awaits or handles is a lost failure.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Style only: `() => setOpen(false)` returning the void call is idiomatic here (300+ places, no bug among them).
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // An async method without await is how a synchronous adapter (better-sqlite3) implements a Promise
      // interface: its throws become rejections, as callers expect. Dropping `async` would change that.
      '@typescript-eslint/require-await': 'off',
      // Off: the defensive checks it flags are meant (a beforeAll that failed before assigning, a message from
      // another tab, a browser without MediaQueryList.addEventListener, a flag a callback sets during an await).
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // Numbers, and an absent value printed as "undefined", are what diagnostics and messages mean to show.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowNullish: true }],
    },
  },
  {
    files: ['**/*.tsx'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  { files: ['**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  {
    files: [...WEB_FILES],
    languageOptions: {
      globals: { ...globals.browser },
      // The frontends and their packages are one TypeScript project (tsconfig.web.json, bundler resolution),
      // which no tsconfig.json names: the project service would not find it.
      parserOptions: { projectService: false, project: './tsconfig.web.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Logging a failure the spec says to "only log" (PRODUCT §8) is the point in the frontends.
      'no-console': ['error', { allow: ['info', 'warn', 'error'] }],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'scripts/**', 'perf/**', '**/*.config.*', 'config/jest/**'],
    rules: {
      'no-console': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // jest's asymmetric matchers (expect.any, expect.objectContaining…) and requireActual are typed `any`.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  // Plain JavaScript (configs, scripts, k6) belongs to no TypeScript project: linted as today, without types.
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  // A remote of its own repository (docs/ADDING_A_REMOTE.md "A remote in its own repository"): its dependencies
  // (the packed @tm/remote-contract among them) are installed where it is copied, never in this workspace, so
  // its types cannot be resolved here. Linted without types; deploy/checks/external-remote.test.ts type-checks
  // it where it is installed.
  { files: ['examples/**'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
