import type { Todo } from '@tm/api-client';
import { useCallback, useLayoutEffect, useRef } from 'react';
import { afterNextPaint, LIST_RENDER_MEASURE, measureSince, takeListDataArrival, TICK_MEASURE } from '../perf-marks';

/**
 * The performance marks of the task list that `pnpm bench` reads (docs/PRODUCT.md §10.5.5). A mark is a
 * diagnostic: it changes nothing on screen.
 */

/** `tm:list-render`: from the list's answer to the first frame painted with its rows. */
export function useListRenderTiming(): void {
  useLayoutEffect(() => {
    const arrived = takeListDataArrival();
    if (arrived !== undefined) afterNextPaint(() => measureSince(LIST_RENDER_MEASURE, arrived));
  }, []);
}

/**
 * `tm:tick` of one row: from the click to the frame painted once the cache holds the new state (the
 * optimistic value), so the whole path from the click to the list updated is counted.
 */
export function useTickTiming(todo: Todo): (clickedAt: number, completed: boolean) => void {
  const pending = useRef<{ at: number; completed: boolean } | undefined>(undefined);
  // A layout effect runs right after the commit, before that frame is painted, so the frame callback below
  // is the one of the frame that paints it. A passive effect of this (non-input) update may run only after
  // that paint, and the measure would then wait for one more frame.
  useLayoutEffect(() => {
    const tick = pending.current;
    if (!tick || todo.completed !== tick.completed) return;
    pending.current = undefined;
    afterNextPaint(() => measureSince(TICK_MEASURE, tick.at));
  }, [todo]);
  return useCallback((at: number, completed: boolean) => {
    pending.current = { at, completed };
  }, []);
}
