import { useCallback, useRef } from 'react';

/**
 * One action, one request (docs/PRODUCT.md §10.2): `run(action)` starts `action` unless the previous one is
 * still on its way, so a double click or a repeated Enter sends one request even before the button shows its
 * pending state. A failure is the action's own business (its callbacks report it).
 */
export function useOneAtATime() {
  const running = useRef(false);
  return useCallback((action: () => Promise<unknown>) => {
    if (running.current) return;
    running.current = true;
    action()
      .catch(() => undefined)
      .finally(() => {
        running.current = false;
      });
  }, []);
}
