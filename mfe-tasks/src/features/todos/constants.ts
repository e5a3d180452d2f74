/** Static assets of the task list (PRODUCT §7); absolute paths, served by whichever app hosts the page. */
export const SOUNDS = {
  added: '/sounds/added.mp3',
  success: '/sounds/success.mp3',
  deleted: '/sounds/deleted.mp3',
} as const;

export const ILLUSTRATION_SRC = '/svgs/to-do-list-animate.svg';

/** PRODUCT §9: confetti of 800 pieces, gravity 0.4, spread over 2000 ms, no recycling, removed after 3000 ms. */
export const CONFETTI = {
  numberOfPieces: 800,
  gravity: 0.4,
  tweenDuration: 2000,
  visibleMs: 3000,
} as const;

/**
 * docs/PRODUCT.md §9: entrance staggered 0.3 s per item on the first load only; exit animation 0.5 s. The
 * stagger runs over the first rows a screen shows (8); every further row enters with the last of them, so
 * a long list is all there within about 2.5 s (PRODUCT §10.5).
 */
export const MOTION = { staggerSeconds: 0.3, staggeredRows: 8, enterSeconds: 0.2, exitSeconds: 0.5 } as const;

/** The entrance delay of the row at `index` on the first load. */
export function entranceDelay(index: number): number {
  return Math.min(index, MOTION.staggeredRows - 1) * MOTION.staggerSeconds;
}

/** How long the still success cue shows instead of confetti when the user asks for reduced motion. */
export const SUCCESS_CUE_MS = 1500;

/** Below this width the row actions move into an overflow menu (PRODUCT §2, issue #3). */
export const SMALL_SCREEN_QUERY = '(max-width: 640px)';

/**
 * A click on a task's title ticks it, a double click edits it (PRODUCT §10.11.1): a single click waits this
 * long for a second one before it ticks.
 */
export const DOUBLE_CLICK_MS = 250;
