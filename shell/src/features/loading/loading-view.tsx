import type { CSSProperties, ReactNode } from 'react';
import { AlchemyFlask, DragonHead, FishCake, Katana, LightningBolt, StrawHat } from './loading-characters';

/** PRODUCT §9: six characters, a new one every 2 s; the dots of "Loading..." move every 600 ms. */
export const CHARACTER_INTERVAL_MS = 2000;
export const DOT_INTERVAL_MS = 600;

/** `Picture` draws the emoji as an inline SVG, so it shows even where no emoji font is installed. */
export const CHARACTERS = [
  { emoji: '🍥', Picture: FishCake, name: 'Naruto Uzumaki', quote: "I'm not gonna run away, I never go back on my word!" },
  { emoji: '👒', Picture: StrawHat, name: 'Monkey D. Luffy', quote: "I'm gonna be King of the Pirates!" },
  { emoji: '⚡', Picture: LightningBolt, name: 'Pikachu', quote: 'Pika pika! Charging up your tasks...' },
  { emoji: '🐉', Picture: DragonHead, name: 'Son Goku', quote: 'Power comes in response to a need, not a desire.' },
  { emoji: '🗡️', Picture: Katana, name: 'Tanjiro Kamado', quote: 'Never give up. Keep moving forward!' },
  { emoji: '⚗️', Picture: AlchemyFlask, name: 'Edward Elric', quote: 'A lesson without pain is meaningless.' },
] as const;

interface LoadingViewProps {
  /**
   * How far into its cycle the screen starts (ms): the CSS animations are shifted back by it, so a screen
   * that takes over from the one painted by the HTML carries on where that one was.
   */
  elapsedMs?: number;
  /** A last line in the card: the static page's `<noscript>` note (prerender.tsx). */
  note?: ReactNode;
  /**
   * How far the start has come (the card said "System Ready" while nothing was ready yet):
   * `starting` until the server has answered who is signed in, `ready` once it has and the app's screens are
   * being set up. PRODUCT §2's "System Ready" and "Initializing application components..." show from then on.
   */
  stage?: LoadingStage;
}

export type LoadingStage = 'starting' | 'ready';

/** The card's two status lines at each stage. */
export const STAGE_TEXT: Record<LoadingStage, { status: string; detail: string }> = {
  starting: { status: 'Starting up', detail: 'Connecting to the server...' },
  ready: { status: 'System Ready', detail: 'Initializing application components...' },
};

/**
 * The loading screen's markup (docs/PRODUCT.md §2), with no state and no timers: every character is in the
 * page and CSS shows one at a time, a new one every 2 s, and moves the dots every 600 ms. Screen readers hear
 * "Loading" and the stage from one polite live region, once, and a change of stage; never the quotes
 * (loading-screen.css). The same markup is written into index.html at build time (prerender.tsx), so the
 * screen paints before any script runs, also with JavaScript blocked, and React takes it over
 * without a jump.
 */
export function LoadingView({ elapsedMs = 0, note, stage = 'starting' }: LoadingViewProps) {
  const timing = {
    '--loading-character-ms': `${CHARACTER_INTERVAL_MS}ms`,
    '--loading-dot-ms': `${DOT_INTERVAL_MS}ms`,
    '--loading-elapsed': `${Math.round(elapsedMs)}ms`,
  } as CSSProperties;
  return (
    <div className="loading-screen" style={timing}>
      <div className="loading-screen__card">
        {/* Outside the live region: the character changing every 2 s is never read out. A figure, not a landmark. */}
        <div className="loading-screen__characters" data-testid="loading-character">
          {CHARACTERS.map(({ emoji, Picture, name, quote }, index) => (
            <figure className="loading-screen__character" key={name} style={{ '--loading-index': index } as CSSProperties}>
              {/* The SVG is hidden from assistive tech; the emoji stays readable to it as visually hidden text. */}
              <span className="loading-screen__picture">
                <Picture />
                <span className="visually-hidden">{emoji}</span>
              </span>
              <blockquote className="loading-screen__quote">
                <p>“{quote}”</p>
              </blockquote>
              <figcaption className="loading-screen__name">— {name}</figcaption>
            </figure>
          ))}
        </div>
        {/* The live region: "Loading" and the stage, said once each; the dots are drawn, not said. */}
        <div className="loading-screen__status" role="status" aria-label="Loading">
          <p className="loading-screen__loading">
            Loading
            <span className="loading-screen__dots" aria-hidden="true">
              <span>.</span>
              <span className="loading-screen__dot-2">.</span>
              <span className="loading-screen__dot-3">.</span>
            </span>
          </p>
          <p className="loading-screen__ready" data-stage={stage}>
            {STAGE_TEXT[stage].status}
          </p>
          <p className="loading-screen__detail">{STAGE_TEXT[stage].detail}</p>
        </div>
        {note}
      </div>
    </div>
  );
}
