import { CheckIcon, readPreferences } from '@tm/web-platform';
import { lazy, Suspense, type CSSProperties } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { CONFETTI, confettiPieces } from '../constants';
import { onFirstAct } from '../hooks/first-act';
import { useWindowSize } from '../hooks/use-window-size';

// react-confetti is fetched in its own chunk (docs/PERFORMANCE.md "First-load budgets": not part of the first load), as soon as the person
// first presses a key or a pointer on the page: a completion starts with one, so it is there in time. Not
// with celebrations off in the person's preferences (PRODUCT §10.10): then it is fetched only if they are
// turned on and a task is completed.
const loadConfetti = () => import('react-confetti');
const Confetti = lazy(loadConfetti);
if (typeof window !== 'undefined') {
  onFirstAct(() => {
    if (readPreferences().celebrations) void loadConfetti().catch(() => undefined);
  });
}

// Inline, not in the stylesheet: the overlay must never block a click, whatever CSS has loaded.
const overlayStyle: CSSProperties = { position: 'fixed', inset: 0, zIndex: 1000, pointerEvents: 'none' };

function ConfettiOverlay({ burst }: { burst: number }) {
  const { width, height } = useWindowSize();
  return (
    <div className="tasks-confetti" style={overlayStyle} aria-hidden="true">
      {/* A new key per completion starts a fresh burst. */}
      <Suspense fallback={null}>
        <Confetti
          key={burst}
          width={width}
          height={height}
          numberOfPieces={confettiPieces(width, height)}
          gravity={CONFETTI.gravity}
          tweenDuration={CONFETTI.tweenDuration}
          recycle={false}
        />
      </Suspense>
    </div>
  );
}

/** The still cue that replaces confetti under `prefers-reduced-motion` (docs/PRODUCT.md §10.9): nothing moves. */
function SuccessCue() {
  return (
    <div className="tasks-success-cue" style={overlayStyle} aria-hidden="true" data-testid="success-cue">
      <span className="tasks-success-cue__badge">
        <CheckIcon size={40} />
      </span>
    </div>
  );
}

/**
 * The completion celebration (PRODUCT §2, §4): a full-screen overlay that ignores pointer events, shown while
 * the trigger counter is above zero; a still success cue instead when the user asks for reduced motion. A
 * browser without a 2D canvas simply gets no confetti.
 */
export function Celebration({ count, reducedMotion }: { count: number; reducedMotion: boolean }) {
  if (count <= 0) return null;
  if (reducedMotion) return <SuccessCue />;
  return (
    <ErrorBoundary fallback={null} onError={(error) => console.info('Confetti is unavailable', error)}>
      <ConfettiOverlay burst={count} />
    </ErrorBoundary>
  );
}
