import { readPreferences } from '@tm/web-platform';
import { useCallback, useEffect, useRef } from 'react';
import { onFirstAct } from './first-act';

/**
 * A function that plays the sound at `src`. The audio element (preload auto) is created at the first key or
 * pointer press on the page, or at the first play, whichever comes first: a sound only follows something
 * the person did, so the files stay off the first load (docs/PERFORMANCE.md "First-load budgets") and are in by the time the server has
 * answered. PRODUCT §8: when the file fails to load or the browser refuses to play it, the sound is silently
 * disabled for this `src` and only logged. With sounds off in the person's preferences (PRODUCT §10.10)
 * nothing plays and the file is not even fetched; read at each press and each play, so a change applies at once.
 */
export function useSound(src: string): () => void {
  const audio = useRef<HTMLAudioElement | null>(null);
  const disabled = useRef(false);

  const disable = useCallback(
    (reason: unknown) => {
      if (disabled.current) return;
      disabled.current = true;
      console.info(`Sound ${src} is disabled`, reason);
    },
    [src],
  );

  const load = useCallback((): HTMLAudioElement | null => {
    if (!readPreferences().sounds) return null;
    if (!audio.current && typeof Audio !== 'undefined') {
      const element = new Audio(src);
      element.preload = 'auto';
      element.addEventListener('error', () => disable(element.error ?? 'load error'), { once: true });
      audio.current = element;
    }
    return audio.current;
  }, [src, disable]);

  useEffect(() => {
    disabled.current = false;
    const stop = onFirstAct(() => void load());
    return () => {
      stop();
      audio.current = null;
    };
  }, [load]);

  return useCallback(() => {
    if (disabled.current) return;
    const element = load();
    if (!element) return;
    try {
      if (!element.paused) element.currentTime = 0;
      // play() returns a promise in browsers (undefined in some test DOMs); a rejection disables the sound.
      Promise.resolve(element.play()).catch(disable);
    } catch (error) {
      disable(error);
    }
  }, [load, disable]);
}
