import type { PublicUser } from '@tm/api-client';
import { routeAddress, type RouteGuard } from '@tm/contracts';
import { useId, type ReactNode } from 'react';
import { Link, Navigate, Route, Routes } from 'react-router-dom';
import { RequireGuest, RequireUser } from '../features/auth/route-guards';
import type { HeaderLink } from '../features/header/header-link';
import { Titled } from '../features/page-title/page-title';
import type { RemoteCatalog } from '../features/remotes/remote-catalog';
import { RemotePage } from '../features/remotes/remote-page';

/** signed-in → RequireUser (else the sign-in route), signed-out → RequireGuest (else /), public → anyone. */
function guarded(guard: RouteGuard, page: ReactNode, signInPath: string): ReactNode {
  if (guard === 'signed-in') return <RequireUser signInPath={signInPath}>{page}</RequireUser>;
  if (guard === 'signed-out') return <RequireGuest>{page}</RequireGuest>;
  return page;
}

/** Whether the guard lets this user (or visitor, null) in. */
function admits(guard: RouteGuard, user: PublicUser | null): boolean {
  return guard === 'public' || (guard === 'signed-in') === (user !== null);
}

/** Every route of the catalog, in its order, with the remote that brings it. */
function routesOf(catalog: RemoteCatalog) {
  return Object.entries(catalog.remotes).flatMap(([remote, description]) => description.routes.map((route) => ({ remote, route })));
}

/**
 * The header links of the routes this user may open, by their declared `order`, then the catalog's order.
 * Once there is any, the home screen (`/`) has one too, order 0, named by its title ("Tasks") unless it
 * declares its own (a second screen's link left no way back to the task list but the product
 * name). With none, the header shows no links at all: a lone link to the only screen would say nothing.
 */
export function headerLinks(catalog: RemoteCatalog | undefined, user: PublicUser | null): HeaderLink[] {
  if (!catalog) return [];
  const admitted = routesOf(catalog).filter(({ route }) => admits(route.guard, user));
  const links = admitted.flatMap(({ route }) => (route.headerLink ? [{ to: routeAddress(route.path), label: route.headerLink.label, order: route.headerLink.order }] : []));
  const home = admitted.find(({ route }) => route.path === '/');
  if (links.length > 0 && home && !links.some((link) => link.to === '/')) links.unshift({ to: '/', label: home.route.title, order: 0 });
  // By declared order, then catalog order (the sort is stable); undeclared ones last.
  return links
    .map((link, index) => ({ link, index, order: link.order ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => a.order - b.order || a.index - b.index)
    .map(({ link }) => ({ to: link.to, label: link.label }));
}

/** The account menu's links (signed-in routes that declare one), in the catalog's order. */
export function accountMenuLinks(catalog: RemoteCatalog | undefined): HeaderLink[] {
  if (!catalog) return [];
  return routesOf(catalog).flatMap(({ route }) => (route.accountMenuLink ? [{ to: routeAddress(route.path), label: route.accountMenuLink.label }] : []));
}

/**
 * A path no screen of the catalog serves while the catalog has no home screen either (`/`: a catalog being
 * rolled out without the task screen's remote): a message and the way to the first screen there is, never a
 * blank page.
 */
function NoScreenHere({ firstPath }: { firstPath: string | undefined }) {
  const headingId = useId();
  return (
    <section className="remote-fallback" role="alert" aria-labelledby={headingId}>
      <h1 id={headingId} className="remote-fallback__title">
        This screen is not available right now.
      </h1>
      <p className="remote-fallback__detail">The app is being updated. Try again in a moment.</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        Retry
      </button>
      {firstPath ? (
        <p className="remote-fallback__detail">
          <Link to={firstPath}>Go to another screen</Link>
        </p>
      ) : null}
    </section>
  );
}

/**
 * The routes of docs/PRODUCT.md §2, as the remote catalog declares them: each is a page exposed by a
 * remote, behind its guard, titled, with the fallback (and Retry) when it cannot be loaded. Any other path
 * goes to `/`, which sends a visitor on to the sign-in route; without a `/` in the catalog, it says so.
 */
export function CatalogRoutes({ catalog }: { catalog: RemoteCatalog }) {
  const routes = routesOf(catalog);
  // Where a visitor signs in: the first signed-out route (the catalog's check makes sure there is one when
  // any route needs a signed-in user).
  const firstScreen = routes.find(({ route }) => route.guard !== 'signed-out');
  const signInPath = routeAddress(routes.find(({ route }) => route.guard === 'signed-out')?.route.path ?? '/');
  return (
    <Routes>
      {routes.map(({ remote, route }) => (
        <Route
          key={route.path}
          // A path ending in `/*` serves the addresses below it too (`/lists/*` → `/lists/<id>`): the remote's
          // page reads the rest of the address itself (ROUTE_PATH; docs/PRODUCT.md §10.19, a list's screen).
          path={route.path}
          element={guarded(
            route.guard,
            <Titled screen={route.title}>
              {/* Keyed by the page, not the address: moving between two routes of one page keeps it mounted. */}
              <RemotePage key={`${remote} ${route.module}`} remote={remote} route={route} />
            </Titled>,
            signInPath,
          )}
        />
      ))}
      <Route
        path="*"
        element={routes.some(({ route }) => route.path === '/') ? <Navigate to="/" replace /> : <NoScreenHere firstPath={firstScreen === undefined ? undefined : routeAddress(firstScreen.route.path)} />}
      />
    </Routes>
  );
}
