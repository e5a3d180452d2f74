import { useId, type ComponentType } from 'react';

/**
 * The contract between the shell and a remote: what a remote exposes for a route
 * (`./TaskListPage`) is a module whose default export is a page the shell renders with no props. The shell
 * gives it <main>, the providers, the router and the guard; everything else the page finds itself.
 * The shell types what it loads with {@link ExposedPageModule}; each remote's exposed modules are built with
 * {@link exposePage}, so a page that starts to require a prop fails `pnpm typecheck` on the remote's side.
 */
export type ExposedPage = ComponentType<Record<string, never>>;

/** A loaded federated module (`loadRemote('mfe_tasks/TaskListPage')`). */
export interface ExposedPageModule {
  default: ExposedPage;
}

/**
 * A remote's exposed modules by their `exposes` key (rspack.config.mjs), checked against the contract at
 * type-check time: each remote's `src/expose/exposes.ts` names its modules with it, so an exposed module
 * without a default export, or whose page requires a prop, fails `pnpm typecheck` on the remote's side.
 */
export type ExposedModules<Modules extends Record<`./${string}`, ExposedPageModule>> = Modules;

/** A remote's screen: it renders the page's <h1> with `id={headingId}`, which names the page's region. */
export type PageScreen = ComponentType<{ headingId: string }>;

export interface ExposePageOptions {
  /** The class of the page's <section> (the remote's page layout), if any. */
  className?: string;
  /** The component's name in React's tools and messages; the screen's name otherwise. */
  displayName?: string;
}

/**
 * The exposed-page wrapper every remote needs: a <section> labelled by the screen's heading, around the
 * screen. `export default exposePage(TaskListScreen)` is the whole exposed module.
 */
export function exposePage(Screen: PageScreen, options: ExposePageOptions = {}): ExposedPage {
  function ExposedPageEntry() {
    const headingId = useId();
    return (
      <section className={options.className} aria-labelledby={headingId}>
        <Screen headingId={headingId} />
      </section>
    );
  }
  ExposedPageEntry.displayName = options.displayName ?? `Exposed(${Screen.displayName ?? Screen.name})`;
  return ExposedPageEntry;
}
