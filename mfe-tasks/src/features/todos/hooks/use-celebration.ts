import { useCallback, useEffect, useRef, useState } from 'react';
import { CONFETTI } from '../constants';

/**
 * The confetti trigger of PRODUCT §4: a counter that each completion raises. The celebration shows while it
 * is above zero and is reset 3000 ms after the last trigger (PRODUCT §9).
 */
export function useCelebration(visibleMs: number = CONFETTI.visibleMs): { count: number; celebrate: () => void } {
  const [count, setCount] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const celebrate = useCallback(() => {
    setCount((current) => current + 1);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCount(0), visibleMs);
  }, [visibleMs]);

  useEffect(() => () => clearTimeout(timer.current), []);
  return { count, celebrate };
}
