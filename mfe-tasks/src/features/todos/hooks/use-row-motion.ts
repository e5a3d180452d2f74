import { usePresence, usePresenceData, useReducedMotion } from 'framer-motion';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import { MOTION } from '../constants';

/**
 * How a row leaves, given by the list (AnimatePresence's `custom`) when the row goes: a task that is gone
 * from the list (deleted, ticked out of the filter) plays the 0.5 s exit of PRODUCT §9; a row that only
 * left the window by scrolling is still in the list and goes at once.
 */
export type StillListed = (todoId: string) => boolean;

/**
 * The list's `StillListed` for these ids. Exiting rows ask it as they go; the set is built only when a row
 * actually leaves, not on every tick.
 */
export function useStillListed(keys: readonly string[]): StillListed {
  return useMemo<StillListed>(() => {
    let ids: Set<string> | undefined;
    return (todoId) => (ids ??= new Set(keys)).has(todoId);
  }, [keys]);
}

const canAnimate = (element: Element | null): element is HTMLElement => element !== null && typeof (element as HTMLElement).animate === 'function';

/**
 * The entrance and the exit of one row (docs/PRODUCT.md §9, §10.5.2), played by the browser (Web Animations:
 * opacity and transform, off the main thread) on the row's own element, with no animation component per row
 * (docs/PERFORMANCE.md "Smooth on a phone": a row scrolled into view costs nothing more than its markup).
 *
 * - Entrance: a row with an `enterDelay` fades in (and rises 12 px) after that many seconds; until then it is
 *   invisible but usable, and `hurry()` (the focus or the pointer reaching it) brings it in at once. A row
 *   with no delay (`null`: it came into view by scrolling) is simply there.
 * - Exit: inside AnimatePresence, a row whose task left the list fades out and slides 32 px left over 0.5 s,
 *   then goes; a row that only left the window goes at once.
 * - Under "reduce motion" nothing moves: rows only fade.
 *
 * Browsers without Web Animations (and jsdom) show rows at once and remove them at once.
 */
export function useRowMotion(row: RefObject<HTMLElement | null>, todoId: string, enterDelay: number | null): { isPresent: boolean; hurry: () => void } {
  const [isPresent, safeToRemove] = usePresence();
  const stillListed = usePresenceData() as StillListed | undefined;
  const reduced = useReducedMotion() ?? false;
  const entrance = useRef<Animation | null>(null);
  const leaving = useRef(false);
  const exit = useRef<Animation | null>(null);

  // Before the first paint, so a row waiting for its turn never flashes in first.
  useLayoutEffect(() => {
    const element = row.current;
    if (enterDelay === null || !canAnimate(element)) return undefined;
    const from = reduced ? { opacity: 0 } : { opacity: 0, transform: 'translateY(12px)' };
    const animation = element.animate([from, { opacity: 1, transform: 'none' }], {
      duration: MOTION.enterSeconds * 1000,
      delay: Math.round(enterDelay * 1000),
      easing: 'ease-out',
      fill: 'backwards',
    });
    entrance.current = animation;
    return () => animation.cancel();
    // Once, when the row mounts: a later delay (the stagger ending) changes nothing for a row already in.
  }, []);

  useEffect(() => {
    if (isPresent) {
      // Back before it was gone (its task listed again, or scrolled back into the window before AnimatePresence
      // removed it): present as any row, its exit undone, and free to leave again later.
      leaving.current = false;
      exit.current?.cancel();
      exit.current = null;
      return undefined;
    }
    if (leaving.current) return undefined;
    leaving.current = true;
    const element = row.current;
    if (!canAnimate(element) || stillListed?.(todoId)) {
      safeToRemove?.();
      return undefined;
    }
    entrance.current?.finish();
    const to = reduced ? { opacity: 0 } : { opacity: 0, transform: 'translateX(-32px)' };
    const animation = element.animate([{ opacity: 1, transform: 'none' }, to], { duration: MOTION.exitSeconds * 1000, easing: 'ease-in', fill: 'forwards' });
    exit.current = animation;
    // Gone once it has played, or was stopped otherwise than by the row coming back.
    const done = () => {
      if (leaving.current) safeToRemove?.();
    };
    animation.finished.then(done, done);
    return undefined;
  }, [isPresent, row, safeToRemove, stillListed, todoId, reduced]);

  const hurry = useCallback(() => {
    const animation = entrance.current;
    if (animation && animation.playState !== 'finished') animation.finish();
  }, []);
  return { isPresent, hurry };
}
