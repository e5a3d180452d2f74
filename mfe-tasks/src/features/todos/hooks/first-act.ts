/** What shows that a person is about to act: a key or pointer press anywhere on the page. */
const FIRST_ACTS = ['pointerdown', 'keydown'] as const;

/**
 * Runs `callback` once, at the next key or pointer press on the page (docs/PERFORMANCE.md "First-load budgets"): what only follows an
 * action (the sounds, the title editor, the shortcuts dialog) is fetched then, not with the page, and is
 * in by the time it is needed. Returns the way to stop waiting.
 */
export function onFirstAct(callback: () => void): () => void {
  const stop = () => {
    for (const type of FIRST_ACTS) window.removeEventListener(type, act, true);
  };
  const act = () => {
    stop();
    callback();
  };
  for (const type of FIRST_ACTS) window.addEventListener(type, act, { capture: true, passive: true });
  return stop;
}
