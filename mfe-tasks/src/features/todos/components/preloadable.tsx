import { lazy, type ComponentType, type JSX } from 'react';

/**
 * A component kept off the first load (docs/PERFORMANCE.md "First-load budgets") that renders at once when it has already arrived: until
 * then it is a `lazy` one (Suspense shows the fallback while it loads). `preload()` fetches it ahead of use,
 * at the first key or pointer press (hooks/first-act.ts), so by the time it is needed it usually is in.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): { Component: (props: P) => JSX.Element; preload: () => Promise<unknown> } {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Component(props: P) {
    const Loaded = loaded ?? Lazy;
    return <Loaded {...props} />;
  }
  return { Component, preload };
}
