// The contract between the shell and a remote, for a remote built outside this workspace (docs/ADDING_A_REMOTE.md
// "A remote in its own repository"). Nothing is copied: `pnpm pack` compiles these re-exports of the sources
// the workspace's remotes use (packages/remote-kit/src/exposed-page.tsx, packages/contracts/src/remote-catalog.ts)
// into dist/, ES modules with their .d.ts.
export { exposePage, type ExposedModules, type ExposedPage, type ExposedPageModule, type ExposePageOptions, type PageScreen } from '../../remote-kit/src/exposed-page.js';
export * from './catalog.js';
