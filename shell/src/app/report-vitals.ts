// The Core Web Vitals reporter (features/vitals) with what it needs of the remote catalog: the route
// patterns a page load is filed under. Loaded lazily by bootstrap.tsx, for a page load in the sample only.
import { loadCatalog } from '../features/remotes/remote-catalog';
import { startVitals } from '../features/vitals/start-vitals';

export function reportVitals(landingPath: string): void {
  startVitals(landingPath, async () => {
    const { catalog } = await loadCatalog();
    return Object.values(catalog.remotes).flatMap((remote) => remote.routes.map((route) => route.path));
  });
}
