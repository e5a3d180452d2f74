import { useEffect, useState } from 'react';
import { AlchemyFlask, DragonHead, FishCake, Katana, LightningBolt, StrawHat } from './loading-characters';
import './loading-screen.css';

/** PRODUCT §9: six characters, a new one every 2 s; a dot added every 600 ms. */
const CHARACTER_INTERVAL_MS = 2000;
const DOT_INTERVAL_MS = 600;

/** `Picture` draws the emoji as an inline SVG, so it shows even where no emoji font is installed (issue #7). */
export const CHARACTERS = [
  { emoji: '🍥', Picture: FishCake, name: 'Naruto Uzumaki', quote: "I'm not gonna run away, I never go back on my word!" },
  { emoji: '👒', Picture: StrawHat, name: 'Monkey D. Luffy', quote: "I'm gonna be King of the Pirates!" },
  { emoji: '⚡', Picture: LightningBolt, name: 'Pikachu', quote: 'Pika pika! Charging up your tasks...' },
  { emoji: '🐉', Picture: DragonHead, name: 'Son Goku', quote: 'Power comes in response to a need, not a desire.' },
  { emoji: '🗡️', Picture: Katana, name: 'Tanjiro Kamado', quote: 'Never give up. Keep moving forward!' },
  { emoji: '⚗️', Picture: AlchemyFlask, name: 'Edward Elric', quote: 'A lesson without pain is meaningless.' },
] as const;

function useTicker(intervalMs: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setTick((value) => value + 1), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return tick;
}

/** Fills the whole screen while the current-user check runs (PRODUCT §2 Loading screen). */
export function LoadingScreen() {
  const character = CHARACTERS[useTicker(CHARACTER_INTERVAL_MS) % CHARACTERS.length] ?? CHARACTERS[0];
  const { Picture } = character;
  const dots = '.'.repeat((useTicker(DOT_INTERVAL_MS) % 3) + 1);
  return (
    <div className="loading-screen" role="status" aria-label="Loading">
      <div className="loading-screen__card">
        <div className="loading-screen__character" key={character.name} data-testid="loading-character">
          {/* The SVG is hidden from assistive tech; the emoji stays readable to it as visually hidden text. */}
          <span className="loading-screen__picture">
            <Picture />
            <span className="visually-hidden">{character.emoji}</span>
          </span>
          <blockquote className="loading-screen__quote">
            <p>“{character.quote}”</p>
            <footer>— {character.name}</footer>
          </blockquote>
        </div>
        <p className="loading-screen__loading" aria-hidden="true">
          Loading<span className="loading-screen__dots">{dots}</span>
        </p>
        <p className="loading-screen__ready">System Ready</p>
        <p className="loading-screen__detail">Initializing application components...</p>
      </div>
    </div>
  );
}
