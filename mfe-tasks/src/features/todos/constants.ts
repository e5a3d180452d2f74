/** Static assets of the task list (PRODUCT §7); absolute paths, served by whichever app hosts the page. */
export const SOUNDS = {
  added: '/sounds/added.mp3',
  success: '/sounds/success.mp3',
  deleted: '/sounds/deleted.mp3',
} as const;

export const ILLUSTRATION_SRC = '/svgs/to-do-list-animate.svg';

/**
 * PRODUCT §9: confetti of 800 pieces, gravity 0.4, spread over 2000 ms, no recycling, removed after 3000 ms.
 * 800 pieces fill a screen of 1280 × 720 (`fullArea`) or more; a smaller screen gets as many as its area holds
 * at the same density, never fewer than `minPieces` (docs/PERFORMANCE.md "Smooth on a phone": a phone's
 * slower CPU drew 800 in frames of up to 150 ms).
 */
export const CONFETTI = {
  numberOfPieces: 800,
  fullArea: 1280 * 720,
  minPieces: 200,
  gravity: 0.4,
  tweenDuration: 2000,
  visibleMs: 3000,
} as const;

/** How many pieces of confetti a window of this size gets: the spec's 800 at the same density (see CONFETTI). */
export function confettiPieces(width: number, height: number): number {
  const share = Math.round((CONFETTI.numberOfPieces * width * height) / CONFETTI.fullArea);
  return Math.min(CONFETTI.numberOfPieces, Math.max(CONFETTI.minPieces, share));
}

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

/** Below this width the row actions move into an overflow menu (PRODUCT §2). */
export const SMALL_SCREEN_QUERY = '(max-width: 640px)';

/** Wide screens show the lists in a sidebar; narrower ones in a drawer opened by "Lists" (docs/PRODUCT.md §10.19). */
export const WIDE_SCREEN_QUERY = '(min-width: 900px)';
