/**
 * Performance marks of the task list (docs/PRODUCT.md §10.5.5), read by `perf/bench/bench-list.mjs` in Chromium and visible in
 * any browser's performance panel:
 * - `tm:list-render`: from the list's answer arriving (`tm:list-data`, marked by the API client) to the first
 *   frame painted with its rows;
 * - `tm:tick`: from the click on a checkbox to the frame painted with the task's new state from the cache.
 */
import { LIST_DATA_MARK } from '@tm/api-client';

export const LIST_RENDER_MEASURE = 'tm:list-render';
export const TICK_MEASURE = 'tm:tick';

const canMeasure = () => typeof performance !== 'undefined' && typeof performance.measure === 'function';

/**
 * Runs `done` once the frame holding the current commit has been painted: a frame callback runs just before
 * that frame's paint, and a task queued from it runs after the paint.
 */
export function afterNextPaint(done: () => void): void {
  if (typeof requestAnimationFrame === 'undefined') return;
  requestAnimationFrame(() => setTimeout(done, 0));
}

/** Measures `name` from `start` (a high-resolution timestamp) to now; silently nothing where unsupported. */
export function measureSince(name: string, start: number): void {
  if (!canMeasure()) return;
  try {
    performance.measure(name, { start, end: performance.now() });
  } catch {
    // An old browser without the options form of measure(): the marks are a diagnostic, never a feature.
  }
}

/**
 * The time the list's answer last arrived, when the API client marked it; the mark is used up, so a list
 * shown again later from the cache (no new answer) is not timed from an old one.
 */
export function takeListDataArrival(): number | undefined {
  if (typeof performance === 'undefined' || typeof performance.getEntriesByName !== 'function') return undefined;
  const arrived = performance.getEntriesByName(LIST_DATA_MARK, 'mark').at(-1)?.startTime;
  performance.clearMarks(LIST_DATA_MARK);
  return arrived;
}
