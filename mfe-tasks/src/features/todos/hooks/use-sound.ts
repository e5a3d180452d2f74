import { useCallback, useEffect, useRef } from 'react';

/**
 * A function that plays the sound at `src`. The audio element is created after mount (preload auto) or on
 * the first play, whichever comes first. PRODUCT §8: when the file fails to load or the browser refuses to
 * play it, the sound is silently disabled for this `src` and only logged.
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
    load();
    return () => {
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
