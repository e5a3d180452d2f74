import { useState } from 'react';
import { LoadingView, type LoadingStage } from './loading-view';
import './loading-screen.css';

export { CHARACTERS } from './loading-view';

let epoch: number | undefined;

/**
 * When the loading screen's cycle began on this page: when the screen painted by index.html started its
 * animations, or else now. Read before React replaces that screen (its first render), kept for every later
 * mount, so the characters and dots never jump back to the start.
 */
function loadingEpoch(): number {
  if (epoch === undefined) {
    const painted = document.querySelector('.loading-screen__character');
    const started = typeof painted?.getAnimations === 'function' ? painted.getAnimations()[0]?.startTime : undefined;
    epoch = typeof started === 'number' ? started : performance.now();
  }
  return epoch;
}

/**
 * Fills the whole screen while the current-user check runs (PRODUCT §2 Loading screen), and then while the
 * catalog of screens arrives (`stage="ready"`: the server has answered).
 */
export function LoadingScreen({ stage = 'starting' }: { stage?: LoadingStage }) {
  const [elapsedMs] = useState(() => Math.max(0, performance.now() - loadingEpoch()));
  return <LoadingView elapsedMs={elapsedMs} stage={stage} />;
}
