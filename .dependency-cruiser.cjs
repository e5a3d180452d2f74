/**
 * The layer rules of docs/ARCHITECTURE.md "Layers", checked over the whole import graph by `pnpm lint`
 * (its `lint:layers` step). packages/build-config/src/layers.test.ts shows each rule failing on a
 * deliberately bad import.
 *
 * Services: routes and middleware → service → domain (`*.domain.ts`, pure rules) and repository (an interface); a store (`*.store.ts`) implements
 * a repository with a database driver; app.ts, server.ts and open-*.store.ts wire them together.
 * Frontends: a feature (`<app>/src/features/<name>`) uses its own files, its app's `common/` and packages/;
 * the app (`app/`, `expose/`, `standalone/`, bootstrap) composes the features.
 * Type-only imports count (tsPreCompilationDeps): a layer that names another's types depends on it.
 */
const path = require('node:path');

/** The apps: deployable units that share code only through packages/. Remotes by pattern (mfe-*), so a new one is covered. */
const REMOTES = 'mfe-[a-z0-9-]+';
const APPS = `(shell|${REMOTES}|gateway|svc-users|svc-todos|e2e)`;
/** The frontends, whose sources have features/ and common/. */
const FRONTENDS = `(shell|${REMOTES})`;
/** An npm package (or its @types), resolved (through pnpm's store) or not. */
const npm = (names) => `(^|/node_modules/)(@types/)?(${names})(/|$)`;
/** Database and cache drivers: only a store adapter (`*.store.ts`) may use them. */
const DRIVERS = npm('better-sqlite3|mongodb|bson|redis|@redis/[^/]+');
/** Koa and its middleware: the HTTP layer. */
const KOA = npm('koa|koa-[^/]+|@koa/[^/]+');
const STORE = '\\.store\\.ts$';
const ROUTE = '\\.(routes|middleware)\\.ts$';
const SERVICE = '\\.service\\.ts$';
const FEATURE = `^${FRONTENDS}/src/features/([^/]+)/`;

/** A dependency from `from` to `to` fails the lint; `$1`, `$2` in `to` are the groups matched by `from.path`. */
const forbid = (name, comment, from, to) => ({ name, severity: 'error', comment, from, to });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid('no-circular', 'No module may depend on itself through others: a cycle makes load order and layers meaningless.', {}, { circular: true }),
    forbid('route-not-to-store', 'Routes and middleware reach data through a service or a repository interface, never a store adapter.', { path: ROUTE }, { path: STORE }),
    forbid('route-not-to-driver', 'Routes and middleware never use a database driver: only a store adapter (*.store.ts) does.', { path: ROUTE }, { path: DRIVERS }),
    forbid(
      'service-not-to-koa',
      'Services are plain TypeScript: no Koa, nor the Koa building blocks of @tm/service-kit (typed errors come from @tm/service-kit/errors).',
      { path: SERVICE },
      { path: [KOA, '^packages/service-kit/'], pathNot: '^packages/service-kit/src/errors\\.ts$' },
    ),
    forbid('service-not-to-driver', 'Services use a repository interface; only a store adapter (*.store.ts) uses a driver.', { path: SERVICE }, { path: DRIVERS }),
    forbid('service-not-to-store', 'Services use a repository interface; the wiring (app.ts, open-*.store.ts) picks the store behind it.', { path: SERVICE }, { path: STORE }),
    forbid('repository-not-to-driver-or-koa', 'A repository is an interface over plain data: no driver, no Koa.', { path: '\\.repository\\.ts$' }, { path: [DRIVERS, KOA] }),
    forbid('store-not-to-koa', 'A store adapter knows its driver, not HTTP.', { path: STORE }, { path: KOA }),
    forbid(
      'domain-is-pure',
      'A domain module (*.domain.ts) holds the rules as pure functions over plain data: no Koa, no driver, no service-kit, no store, no service.',
      { path: '\\.domain\\.ts$' },
      { path: [KOA, DRIVERS, '^packages/service-kit/', STORE, SERVICE, ROUTE] },
    ),
    forbid(
      'feature-not-to-other-feature',
      "A feature uses its own files, its app's common/ and packages/; what two features share moves to common/.",
      { path: FEATURE },
      { path: '^$1/src/features/', pathNot: '^$1/src/features/$2/' },
    ),
    forbid(
      'feature-not-to-app',
      'The app (app/, expose/, standalone/, bootstrap) composes the features, never the other way round.',
      // A feature's tests may render it as users reach it, through the app or its federated entry (expose/):
      // a test looks from outside and is no part of the feature's code. Only this rule lets them.
      { path: FEATURE, pathNot: '\\.test\\.tsx?$' },
      { path: '^$1/src/', pathNot: '^$1/src/(features|common|test)/' },
    ),
    forbid("common-not-to-feature-or-app", "An app's common/ code is below its features.", { path: `^${FRONTENDS}/src/common/` }, { path: '^$1/src/', pathNot: '^$1/src/common/' }),
    forbid('package-not-to-app', 'packages/ are shared by the apps and depend on none of them.', { path: '^packages/' }, { path: `^${APPS}/` }),
    forbid('app-not-to-other-app', "No app imports another app's sources; shared code lives in packages/.", { path: `^${APPS}/` }, { path: `^${APPS}/`, pathNot: '^$1/' }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Build output and data of this repository; not of npm packages (redis, for one, lives in a dist/ folder).
    exclude: { path: [`^(${APPS.slice(1, -1)}|deploy|packages/[^/]+)/(dist|coverage|public)/`, '(^|/)\\.(test-)?data/'] },
    tsPreCompilationDeps: true,
    // Workspace packages resolve to their TypeScript sources (paths in tsconfig.depcruise.json), as in jest.config.js.
    tsConfig: { fileName: path.join(__dirname, 'tsconfig.depcruise.json') },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'], mainFields: ['main', 'types'] },
    skipAnalysisNotInRules: true,
  },
};
