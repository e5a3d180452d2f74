// Field data of what users feel (docs/OPERATIONS.md "What users feel (RUM)"): the Core Web Vitals of
// a sampled share of page loads, batched and sent to the gateway with navigator.sendBeacon when the page is
// hidden. This module is the reporter's logic, with no browser API of its own (unit-tested in jsdom);
// start-vitals.ts wires it to `web-vitals` and the page's lifecycle. Nothing personal is sent: the route
// pattern the page was loaded at (never the URL: no ids, no query), the vital's name and its value.
import { routeServes, RUM_LIMITS, RUM_METRIC_NAMES, RUM_OTHER_ROUTE, type RumMetricName } from '@tm/contracts';

/** What `web-vitals` hands its callbacks, as far as the report needs it. */
export interface MeasuredVital {
  name: string;
  value: number;
  /** Unique per metric and page load (and per return from the back/forward cache). */
  id: string;
}

/** One value of a report, as `POST /api/rum` takes it (RumReport in @tm/contracts). */
export interface ReportedVital {
  name: RumMetricName;
  value: number;
}

/** The body of one beacon. */
export interface VitalsReport {
  route: string;
  metrics: ReportedVital[];
}

/**
 * The route pattern of a path among the catalog's routes (`/`, `/login`, `/insights`, `/lists/*` for
 * `/lists/<id>`: routeServes), a trailing slash ignored; `other` for a path that is none of them (the shell
 * sends it on to `/`). Never the path itself: it could carry an id.
 */
export function routeOf(pathname: string, routes: readonly string[]): string {
  return routes.find((route) => routeServes(route, pathname)) ?? RUM_OTHER_ROUTE;
}

const isReported = (name: string): name is RumMetricName => (RUM_METRIC_NAMES as readonly string[]).includes(name);

/** Milliseconds to whole milliseconds; CLS (a score) to 4 decimals: the histograms need no more. */
function rounded(name: RumMetricName, value: number): number {
  return name === 'CLS' ? Math.round(value * 10_000) / 10_000 : Math.round(value);
}

export interface VitalsReporter {
  /** Queues a vital (the first report of each metric id; LCP, INP, CLS, TTFB only). */
  record(vital: MeasuredVital): void;
  /** Sends what is queued, in as few beacons as the per-report limit allows; nothing when nothing is queued. */
  flush(): void;
}

/**
 * Queues the vitals of one page load and sends them in batches. `route` is read when a batch is sent (the
 * catalog may arrive after the first vital). A metric `web-vitals` reports again (INP and CLS when the page
 * is hidden a second time) is sent once, as it stood the first time: the histograms count page loads.
 */
export function createVitalsReporter({ route, send }: { route: () => string; send: (body: string) => void }): VitalsReporter {
  const queue: ReportedVital[] = [];
  const seen = new Set<string>();
  return {
    record({ name, value, id }) {
      if (!isReported(name) || seen.has(id) || !Number.isFinite(value) || value < 0 || value > RUM_LIMITS.maxValue[name]) return;
      seen.add(id);
      queue.push({ name, value: rounded(name, value) });
    },
    flush() {
      while (queue.length > 0) {
        const report: VitalsReport = { route: route(), metrics: queue.splice(0, RUM_LIMITS.metricsPerReport) };
        send(JSON.stringify(report));
      }
    },
  };
}
