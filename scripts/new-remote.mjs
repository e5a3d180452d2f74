#!/usr/bin/env node
// `pnpm new:remote <name> --route <path> [--guard signed-in|signed-out|public]` (docs/ADDING_A_REMOTE.md): scaffolds a
// remote, mfe-<name>, that builds, type-checks, lints and tests with everything else by pattern (mfe-*):
// package.json (dependencies as mfe-tasks has them, a first-load budget, the "remote" declaration with its
// route), rspack.config.mjs (the remote preset of @tm/build-config), an exposed page and its type check
// against the contract (src/expose/exposes.ts), the standalone app
// (@tm/remote-kit) and a component test. docs/ADDING_A_REMOTE.md is the checklist that follows.
//
// --dir <folder> writes the remote into another folder than the repository (the scaffold's own test);
// --skip-install does not run `pnpm install` afterwards.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { workspaceRemotes } from '../packages/build-config/workspace-remotes.mjs';

const ROOT = path.join(import.meta.dirname, '..');
const GUARDS = ['signed-in', 'signed-out', 'public'];
const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const ROUTE_PATH = /^\/(?:[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*)?$/;
/** The package whose dependency versions a new remote takes (the shared singletons must match the shell's). */
const TEMPLATE = 'mfe-tasks';
const DEPENDENCIES = ['@tanstack/react-query', '@tm/api-client', '@tm/remote-kit', '@tm/web-platform', 'axios', 'react', 'react-dom', 'react-hot-toast', 'react-router-dom'];
const DEV_DEPENDENCIES = ['@testing-library/react', '@tm/build-config', '@tm/web-test-support'];
/**
 * A new remote's first-load budget (gzipped KiB), room for a real screen (16 KiB would fail the build at the
 * first `useQuery`): its remote entry (~14.5 KiB: the federation container and the shared modules it
 * can ask for) plus about 5 KiB for a screen that reads shared data (mfe-insights, figures and an SVG chart:
 * 19.5 KiB), with room to grow. docs/ADDING_A_REMOTE.md "Budget" says how to choose one.
 */
const BUDGET_KIB = 24;

class UsageError extends Error {}

const words = (name) => name.split('-');
const capitalised = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/** The remotes already in `dir`: their folders, dev ports and routes. */
function existingRemotes(dir) {
  return workspaceRemotes(dir).map(({ folder, port, routes }) => ({ folder, port, routes: routes.map((route) => route.path) }));
}

/** Checks the command line; returns what to write. */
export function plan(argv, { dir = ROOT } = {}) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { route: { type: 'string' }, guard: { type: 'string', default: 'signed-in' }, dir: { type: 'string' }, 'skip-install': { type: 'boolean', default: false } },
  });
  const target = values.dir ? path.resolve(values.dir) : dir;
  const [name] = positionals;
  if (!name || positionals.length > 1) throw new UsageError('usage: pnpm new:remote <name> --route <path> [--guard signed-in|signed-out|public]');
  if (name.startsWith('mfe-')) throw new UsageError(`give the name without "mfe-": pnpm new:remote ${name.slice(4)} …`);
  if (!NAME.test(name) || name.length > 30) {
    throw new UsageError(`"${name}" is not a valid remote name: lower-case letters and digits, words joined by "-", starting with a letter, at most 30 characters (stats, team-board)`);
  }
  if (!values.route) throw new UsageError('--route <path> is required: the address of the remote\'s page, such as /stats');
  if (!ROUTE_PATH.test(values.route)) throw new UsageError(`--route ${values.route} must be an absolute path such as /stats`);
  if (!GUARDS.includes(values.guard)) throw new UsageError(`--guard must be one of ${GUARDS.join(', ')}`);
  const folder = `mfe-${name}`;
  if (existsSync(path.join(target, folder))) throw new UsageError(`${path.join(target, folder)} already exists: choose another name, or remove that folder first`);
  const remotes = existingRemotes(target);
  const owner = remotes.find((remote) => remote.routes.includes(values.route));
  if (owner) throw new UsageError(`the route ${values.route} is already ${owner.folder}'s: choose another --route`);
  const label = words(name).map(capitalised).join(' ');
  return {
    dir: target,
    folder,
    federationName: `mfe_${name.replace(/-/g, '_')}`,
    page: `${words(name).map(capitalised).join('')}Page`,
    screen: `${words(name).map(capitalised).join('')}Screen`,
    file: `${name}-page`,
    feature: name,
    label,
    route: values.route,
    guard: values.guard,
    port: Math.max(3002, ...remotes.map((remote) => remote.port)) + 1,
    install: !values['skip-install'] && !values.dir,
  };
}

function packageJson(p) {
  const template = JSON.parse(readFileSync(path.join(ROOT, TEMPLATE, 'package.json'), 'utf8'));
  const versions = { ...template.dependencies, ...template.devDependencies };
  const pick = (names) => Object.fromEntries(names.map((dep) => [dep, versions[dep] ?? 'workspace:*']));
  return {
    name: p.folder,
    version: '0.1.0',
    private: true,
    // The template's scripts, its own jest project's name (`pnpm check:changed` runs it through turbo) made this one's.
    scripts: Object.fromEntries(Object.entries(template.scripts).map(([name, command]) => [name, command.replaceAll(TEMPLATE, p.folder)])),
    budgets: { firstLoadGzipKiB: BUDGET_KIB },
    remote: {
      name: p.federationName,
      routes: [
        {
          path: p.route,
          module: `./${p.page}`,
          guard: p.guard,
          title: p.label,
          name: `${p.label.toLowerCase()} screen`,
          headerLink: { label: p.label },
        },
      ],
    },
    dependencies: pick(DEPENDENCIES),
    devDependencies: pick(DEV_DEPENDENCIES),
  };
}

/** The files of the new remote, by path inside its folder. */
export function files(p) {
  const standalonePage =
    p.guard === 'signed-in'
      ? `      <SignedInOnly purpose="the ${p.label.toLowerCase()} page">\n        <${p.page} />\n      </SignedInOnly>`
      : `      <${p.page} />`;
  return {
    'package.json': `${JSON.stringify(packageJson(p), null, 2)}\n`,
    'rspack.config.mjs': `import { createRemoteConfig } from '@tm/build-config/remote';

// Federation name and routes: "remote" in package.json. Dev port: env REMOTE_PORT, else ${p.port}.
export default createRemoteConfig({
  dir: import.meta.dirname,
  port: ${p.port},
  title: 'Task Manager — ${p.label.toLowerCase()}',
  exposes: { './${p.page}': './src/expose/${p.file}.tsx' },
});
`,
    'src/index.ts': `// Module Federation needs an async boundary before any shared module (React, the router…) is used.
void import('./bootstrap');
`,
    'src/bootstrap.tsx': `import { mountStandalone } from '@tm/remote-kit/standalone';
import { StandaloneApp } from './standalone/standalone-app';

mountStandalone(<StandaloneApp />);
`,
    'src/standalone/standalone-app.tsx': `import { ${p.guard === 'signed-in' ? 'SignedInOnly, ' : ''}StandaloneFrame } from '@tm/remote-kit/standalone';
import ${p.page} from '../expose/${p.file}';

/** The remote on its own (\`pnpm --filter ${p.folder} dev\`, port from env REMOTE_PORT, the shell at env SHELL_URL). */
export function StandaloneApp() {
  return (
    <StandaloneFrame>
${standalonePage}
    </StandaloneFrame>
  );
}
`,
    [`src/expose/${p.file}.tsx`]: `import { exposePage } from '@tm/remote-kit';
import { ${p.screen} } from '../features/${p.feature}/${p.feature}-screen';

/** Exposed as \`${p.federationName}/${p.page}\`: the ${p.route} route of the shell, which provides <main> and the guard. */
export default exposePage(${p.screen}, { displayName: '${p.page}' });
`,
    'src/expose/exposes.ts': `// The modules this remote exposes (rspack.config.mjs "exposes"), checked against the contract of
// @tm/remote-kit by \`pnpm typecheck\`: a default export the shell renders with no props. Keep it in step
// with rspack.config.mjs (packages/build-config/src/exposes-contract.test.ts checks that it is).
import type { ExposedModules } from '@tm/remote-kit';
import type * as ${p.page} from './${p.file}';

export type Exposes = ExposedModules<{ './${p.page}': typeof ${p.page} }>;
`,
    [`src/features/${p.feature}/${p.feature}-screen.tsx`]: `/** The ${p.label.toLowerCase()} screen. Its <h1> carries \`headingId\`, which names the page's region. */
export function ${p.screen}({ headingId }: { headingId: string }) {
  return (
    <>
      <h1 id={headingId}>${p.label}</h1>
      <p>Nothing here yet.</p>
    </>
  );
}
`,
    [`src/expose/${p.file}.test.tsx`]: `import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { screen } from '@testing-library/react';
import ${p.page} from './${p.file}';

// Rendered as the shell renders it: inside the real providers (the shared QueryClient, a router, the toaster)
// and ${p.guard === 'signed-in' ? 'with a user signed up on' : 'against'} the real test gateway, so the screen may read shared data
// (useQuery(todosQuery()), useLiveTodos(): docs/ADDING_A_REMOTE.md "Reading shared data").
describe('the ${p.label.toLowerCase()} page', () => {${p.guard === 'signed-in' ? `
  beforeEach(async () => {
    await signUpNewUser();
  });
` : ''}
  it('renders its screen in a region named by its heading', () => {
    renderPage(<${p.page} />, { route: '${p.route}' });
    expect(screen.getByRole('region', { name: '${p.label}' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: '${p.label}' })).toBeInTheDocument();
  });
});
`,
  };
}

function main() {
  let p;
  try {
    p = plan(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError || error?.code?.startsWith?.('ERR_PARSE_ARGS')) {
      console.error(`new:remote: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const base = path.join(p.dir, p.folder);
  for (const [file, text] of Object.entries(files(p))) {
    mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
    writeFileSync(path.join(base, file), text);
  }
  console.log(`Created ${path.relative(process.cwd(), base) || base}: ${p.federationName}, exposing ./${p.page} at ${p.route} (${p.guard}), dev port ${p.port}.`);
  if (p.install) execFileSync('pnpm', ['install'], { cwd: ROOT, stdio: 'inherit' });
  console.log(
    [
      '',
      'Next steps (docs/ADDING_A_REMOTE.md):',
      ...(p.install ? [] : ['  pnpm install                          # links the new package']),
      `  pnpm --filter ${p.folder} dev         # standalone on http://localhost:${p.port} (REMOTE_PORT, SHELL_URL to change)`,
      `  pnpm exec jest --selectProjects ${p.folder}`,
      `  pnpm --filter ${p.folder} build       # dist/ with mf-manifest.json and remote.json`,
      '  pnpm typecheck && pnpm lint',
      `  a running npm start serves it from the next page load once it is built (no restart; pnpm remotes:list shows its releases);`,
      `  a deployment with REMOTES_FILE takes it without a restart: add "${p.folder.slice(4)}": "<published dist folder>" to that file.`,
      '',
      ...deploySteps(p.folder),
    ].join('\n'),
  );
}

/**
 * What the compose and Kubernetes deployments need for remote `folder` (mfe-<key>): nothing written by hand.
 * `pnpm deploy:render` makes its catalog entry, compose service and Kubernetes manifests from the workspace
 * (docs/DEPLOY.md "The remote catalog").
 */
export function deploySteps(folder) {
  const key = folder.replace(/^mfe-/, '');
  const tag = `${folder.toUpperCase().replaceAll('-', '_')}_TAG`;
  return [
    'Split deployments (docs/DEPLOY.md "The remote catalog"): nothing to add by hand for compose or Kubernetes.',
    `  pnpm deploy:render                     # writes its catalog entry (/remotes/${key}/mf-manifest.json), compose service`,
    '                                         # and Kubernetes manifests into deploy/generated/ (not committed), as for every remote',
    '  pnpm exec jest --selectProjects deploy # the deploy checks render it too and hold it to the deployment rules',
    `  compose:    pnpm deploy:render, then \`up -d --build --no-deps ${folder}\` and \`up -d --no-deps shell\``,
    `              (its own image tag, optional: ${tag}=<tag> in deploy/.env)`,
    '  Kubernetes: pnpm deploy:render, then kubectl apply -k deploy/k8s and a restart of deployment/shell',
    '  nothing in deploy/nginx/lb.conf or deploy/docker/: one location and one Dockerfile serve every remote',
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
