/** Static assets of the task list (SPEC §7); absolute paths, served by whichever app hosts the page. */
export const SOUNDS = {
  added: '/sounds/added.mp3',
  success: '/sounds/success.mp3',
  deleted: '/sounds/deleted.mp3',
} as const;

export const ILLUSTRATION_SRC = '/svgs/to-do-list-animate.svg';

/** SPEC §9: confetti of 800 pieces, gravity 0.4, spread over 2000 ms, no recycling, removed after 3000 ms. */
export const CONFETTI = {
  numberOfPieces: 800,
  gravity: 0.4,
  tweenDuration: 2000,
  visibleMs: 3000,
} as const;

/** SPEC §9: entrance staggered 0.3 s per item on the first load only; exit animation 0.5 s. */
export const MOTION = { staggerSeconds: 0.3, exitSeconds: 0.5 } as const;

/** Below this width the row actions move into an overflow menu (SPEC §2, issue #3). */
export const SMALL_SCREEN_QUERY = '(max-width: 640px)';
