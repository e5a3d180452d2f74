/**
 * The rules `pnpm lint` enforces (docs/ARCHITECTURE.md "Layers"), shown failing: the real
 * dependency-cruiser and eslint, with the repository's own configs, run on small trees of good and
 * deliberately bad files written for the test (under the git- and lint-ignored .test-data/).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
let scratch: string;

beforeAll(() => {
  const base = path.join(__dirname, '../.test-data');
  mkdirSync(base, { recursive: true });
  scratch = mkdtempSync(path.join(base, 'layers-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes `files` (path → text) under `dir`. */
function writeTree(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

/** The layout the rules know, done right: wiring, routes → service → repository ← store, features, common/, packages. */
const GOOD: Record<string, string> = {
  'svc-todos/src/demo.repository.ts': 'export interface DemoRepository { list(): Promise<string[]> }\n',
  'svc-todos/src/sqlite-demo.store.ts': "import Database from 'better-sqlite3';\nimport type { DemoRepository } from './demo.repository.js';\nexport type Store = [Database.Database, DemoRepository];\n",
  'svc-todos/src/demo.service.ts':
    "import { NotFoundError } from '../../packages/service-kit/src/errors.js';\nimport type { DemoRepository } from './demo.repository.js';\nexport type Service = [DemoRepository, NotFoundError];\n",
  'svc-todos/src/demo.routes.ts': "import Router from '@koa/router';\nimport type { Context } from 'koa';\nimport type { Service } from './demo.service.js';\nexport type Routes = [Router, Context, Service];\n",
  'svc-todos/src/app.ts': "import './demo.routes.js';\nimport './demo.service.js';\nimport './sqlite-demo.store.js';\nexport const app = 1;\n",
  'mfe-tasks/src/common/button.tsx': 'export const Button = 1;\n',
  'mfe-tasks/src/features/list/list-item.tsx': 'export const ListItem = 1;\n',
  'mfe-tasks/src/features/list/list.tsx': "import { ListItem } from './list-item';\nimport { Button } from '../../common/button';\nexport const List = [ListItem, Button];\n",
  // The one exemption: a feature's test may render the page as the app exposes it.
  'mfe-tasks/src/features/list/list.test.tsx': "import Page from '../../expose/page';\nexport const rendered = Page;\n",
  'mfe-tasks/src/expose/page.tsx': "import { List } from '../features/list/list';\nexport default List;\n",
  'packages/service-kit/src/errors.ts': 'export class NotFoundError extends Error {}\n',
  'packages/service-kit/src/index.ts': "import type { Context } from 'koa';\nexport type Ctx = Context;\nexport * from './errors.js';\n",
  'packages/kit/src/util.ts': 'export const util = 1;\n',
  'packages/kit/src/index.ts': "export { util } from './util.js';\n",
  'shell/src/app.tsx': "import { util } from '../../packages/kit/src/index.js';\nexport const App = util;\n",
};

/** One deliberately bad import per rule, and the violation each must produce (`rule: from → to`). */
const BAD: Record<string, string> = {
  'svc-todos/src/bad-store.routes.ts': "import './sqlite-demo.store.js';\n",
  'svc-todos/src/bad-driver.middleware.ts': "import { MongoClient } from 'mongodb';\nexport const client = MongoClient;\n",
  'svc-todos/src/bad-redis.routes.ts': "import { createClient } from 'redis';\nexport const client = createClient;\n",
  'svc-todos/src/bad-koa.service.ts': "import type { Context } from 'koa';\nexport type Ctx = Context;\n",
  'svc-todos/src/bad-kit.service.ts': "import type { Ctx } from '../../packages/service-kit/src/index.js';\nexport type C = Ctx;\n",
  'svc-todos/src/bad-driver.service.ts': "import Database from 'better-sqlite3';\nexport const db = Database;\n",
  'svc-todos/src/bad-store.service.ts': "import type { Store } from './sqlite-demo.store.js';\nexport type S = Store;\n",
  'svc-todos/src/bad.repository.ts': "import { ObjectId } from 'bson';\nexport const id = ObjectId;\n",
  'svc-todos/src/bad-koa.store.ts': "import Koa from 'koa';\nexport const app = Koa;\n",
  'svc-todos/src/bad-store.domain.ts': "import type { Store } from './sqlite-demo.store.js';\nexport type S = Store;\n",
  'svc-todos/src/bad-driver.domain.ts': "import Database from 'better-sqlite3';\nexport const db = Database;\n",
  'mfe-tasks/src/features/editor/editor.tsx': "import { List } from '../list/list';\nexport const Editor = List;\n",
  'mfe-tasks/src/features/editor/editor.test.tsx': "import { List } from '../list/list';\nexport const rendered = List;\n",
  'mfe-tasks/src/features/editor/editor-page.tsx': "import Page from '../../expose/page';\nexport const EditorPage = Page;\n",
  'mfe-tasks/src/common/bad-common.tsx': "import { List } from '../features/list/list';\nexport const Common = List;\n",
  'packages/kit/src/bad-app.ts': "import { app } from '../../../svc-todos/src/app.js';\nexport const kit = app;\n",
  'shell/src/bad-remote.tsx': "import Page from '../../mfe-tasks/src/expose/page';\nexport const Remote = Page;\n",
  'packages/kit/src/cycle-a.ts': "import { b } from './cycle-b.js';\nexport const a = () => b;\n",
  'packages/kit/src/cycle-b.ts': "import { a } from './cycle-a.js';\nexport const b = () => a;\n",
};
const EXPECTED = [
  'route-not-to-store: svc-todos/src/bad-store.routes.ts → svc-todos/src/sqlite-demo.store.ts',
  'route-not-to-driver: svc-todos/src/bad-driver.middleware.ts → mongodb',
  'route-not-to-driver: svc-todos/src/bad-redis.routes.ts → redis',
  'service-not-to-koa: svc-todos/src/bad-koa.service.ts → koa',
  'service-not-to-koa: svc-todos/src/bad-kit.service.ts → packages/service-kit/src/index.ts',
  'service-not-to-driver: svc-todos/src/bad-driver.service.ts → better-sqlite3',
  'service-not-to-store: svc-todos/src/bad-store.service.ts → svc-todos/src/sqlite-demo.store.ts',
  'repository-not-to-driver-or-koa: svc-todos/src/bad.repository.ts → bson',
  'store-not-to-koa: svc-todos/src/bad-koa.store.ts → koa',
  'domain-is-pure: svc-todos/src/bad-store.domain.ts → svc-todos/src/sqlite-demo.store.ts',
  'domain-is-pure: svc-todos/src/bad-driver.domain.ts → better-sqlite3',
  'feature-not-to-other-feature: mfe-tasks/src/features/editor/editor.tsx → mfe-tasks/src/features/list/list.tsx',
  'feature-not-to-other-feature: mfe-tasks/src/features/editor/editor.test.tsx → mfe-tasks/src/features/list/list.tsx',
  'feature-not-to-app: mfe-tasks/src/features/editor/editor-page.tsx → mfe-tasks/src/expose/page.tsx',
  'common-not-to-feature-or-app: mfe-tasks/src/common/bad-common.tsx → mfe-tasks/src/features/list/list.tsx',
  'package-not-to-app: packages/kit/src/bad-app.ts → svc-todos/src/app.ts',
  'app-not-to-other-app: shell/src/bad-remote.tsx → mfe-tasks/src/expose/page.tsx',
  // A cycle is reported once, at the edge where the cruise found it closed.
  'no-circular: packages/kit/src/cycle-a.ts → packages/kit/src/cycle-b.ts',
];

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** An npm package by its name, wherever pnpm keeps it; a file of the tree by its path. */
function label(module: string): string {
  const at = module.lastIndexOf('node_modules/');
  if (at < 0) return module;
  const [first = '', second = ''] = module.slice(at + 'node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/** Runs `depcruise --config .dependency-cruiser.cjs` from `dir` (its paths are relative to it), as `pnpm lint` does. */
function depcruise(dir: string, ...options: string[]) {
  const bin = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const args = [bin, '--config', path.join(ROOT, '.dependency-cruiser.cjs'), ...options, 'svc-todos', 'mfe-tasks', 'packages', 'shell'];
  return spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The violations in `dir`, as `rule: from → to`. */
function violations(dir: string): string[] {
  const run = depcruise(dir, '--output-type', 'json');
  if (!run.stdout) throw new Error(`dependency-cruiser printed nothing (exit ${run.status}):\n${run.stderr}`);
  const result = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${label(v.to)}`).sort();
}

describe('the layer rules (.dependency-cruiser.cjs)', () => {
  let tree: string;
  beforeAll(() => {
    tree = path.join(scratch, 'tree');
    writeTree(tree, GOOD);
    // The drivers and Koa resolve as they do in a service: through svc-todos' own dependencies.
    symlinkSync(path.join(ROOT, 'svc-todos/node_modules'), path.join(tree, 'node_modules'));
  });

  it('pass the layering the repository uses', () => {
    expect(violations(tree)).toEqual([]);
    const lint = depcruise(tree);
    expect(lint.stdout).toContain('no dependency violations found');
    expect(lint.status).toBe(0);
  }, 60_000);

  it('fail the lint on each forbidden import, and only on those', () => {
    writeTree(tree, BAD);
    expect(violations(tree)).toEqual([...EXPECTED].sort());
    // What `pnpm lint` sees: the error report, and an exit status that counts the errors.
    const lint = depcruise(tree);
    expect(lint.stdout).toContain(`${EXPECTED.length} dependency violations (${EXPECTED.length} errors, 0 warnings)`);
    expect(lint.status).toBe(EXPECTED.length);
  }, 60_000);
});

describe('type-checked lint (eslint.config.mjs)', () => {
  /** Lints `files` (name → text) with the repository's eslint config, in a TypeScript project of their own. */
  function lint(files: Record<string, string>): { status: number | null; problems: string[] } {
    const dir = path.join(scratch, `eslint-${Object.keys(files).join('-').replace(/\W/g, '')}`);
    writeTree(dir, {
      ...files,
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2023', lib: ['ES2023'], module: 'Node16', types: [] }, include: ['*.ts'] }),
    });
    const bin = path.join(ROOT, 'node_modules/eslint/bin/eslint.js');
    // .test-data is ignored by `pnpm lint`; --no-ignore lints it here with everything else the config says.
    const run = spawnSync(process.execPath, [bin, '--no-ignore', '--format', 'json', ...Object.keys(files).map((file) => path.join(dir, file))], { cwd: ROOT, encoding: 'utf8' });
    if (!run.stdout) throw new Error(`eslint printed nothing (exit ${run.status}):\n${run.stderr}`);
    const results = JSON.parse(run.stdout) as { filePath: string; messages: { ruleId: string | null; line: number; message: string }[] }[];
    return {
      status: run.status,
      problems: results.flatMap((result) => result.messages.map((m) => `${path.basename(result.filePath)}:${m.line} ${m.ruleId ?? m.message}`)),
    };
  }

  const SAVE = 'export function save(): Promise<void> {\n  return Promise.resolve();\n}\n';

  it('fails a floating promise and a promise-returning function where a void callback is expected', () => {
    const bad = `${SAVE}export function onSubmit(): void {\n  save();\n}\nexport const handlers: { onClick: () => void } = { onClick: save };\n`;
    expect(lint({ 'unhandled.ts': bad })).toEqual({
      status: 1,
      problems: ['unhandled.ts:5 @typescript-eslint/no-floating-promises', 'unhandled.ts:7 @typescript-eslint/no-misused-promises'],
    });
  }, 60_000);

  it('passes the same promises awaited, handled or explicitly let go', () => {
    const good = [
      SAVE,
      'export async function onSubmit(): Promise<void> {\n  await save();\n}',
      'export function onChange(report: (error: unknown) => void): void {\n  save().catch(report);\n}',
      'export const handlers: { onClick: () => void } = { onClick: () => void save() };\n',
    ].join('\n');
    expect(lint({ 'handled.ts': good })).toEqual({ status: 0, problems: [] });
  }, 60_000);
});
