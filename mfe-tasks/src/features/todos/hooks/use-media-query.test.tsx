import { act, renderHook } from '@testing-library/react';
import { restoreMatchMedia, stubMatchMedia } from '../../../test/browser-stubs';
import { useMediaQuery } from './use-media-query';

describe('useMediaQuery', () => {
  afterEach(() => restoreMatchMedia());

  it('answers whether the query matches', () => {
    stubMatchMedia(['(max-width: 640px)']);
    expect(renderHook(() => useMediaQuery('(max-width: 640px)')).result.current).toBe(true);
    expect(renderHook(() => useMediaQuery('(min-width: 641px)')).result.current).toBe(false);
  });

  it('follows changes of the media query', () => {
    let matches = false;
    const listeners = new Set<() => void>();
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: () => ({
        get matches() {
          return matches;
        },
        addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
        removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
      }),
    });
    const { result, unmount } = renderHook(() => useMediaQuery('(max-width: 640px)'));
    expect(result.current).toBe(false);
    matches = true;
    act(() => listeners.forEach((listener) => listener()));
    expect(result.current).toBe(true);
    unmount();
    expect(listeners.size).toBe(0);
  });

  it('is false where matchMedia does not exist', () => {
    Reflect.deleteProperty(window, 'matchMedia');
    expect('matchMedia' in window).toBe(false);
    expect(renderHook(() => useMediaQuery('(max-width: 640px)')).result.current).toBe(false);
  });
});
