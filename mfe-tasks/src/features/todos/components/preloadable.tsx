import { lazy, Suspense, useState, type ComponentType, type JSX, type ReactNode } from 'react';

/**
 * A component kept off the first load (docs/PERFORMANCE.md "First-load budgets") that renders at once when it has already arrived: until
 * then it is a `lazy` one, shown inside its own Suspense boundary whose fallback is `fallback(props)` (nothing
 * by default: a dialog or menu simply appears when it has come). `preload()` fetches it ahead of use, at the
 * first key or pointer press (hooks/first-act.ts), so by the time it is needed it usually is in.
 */
export function preloadable<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: (props: P) => ReactNode = () => null,
): { Component: (props: P) => JSX.Element; preload: () => Promise<unknown> } {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Component(props: P) {
    // Chosen once per mount: one that mounted before the code arrived keeps rendering through `Lazy` (resolved
    // by then, so it renders at once), rather than switch to `Loaded`, a new element type that would remount it
    // and lose its state (an open dialog's typing) at the next render.
    const [Loaded] = useState(() => loaded);
    if (Loaded) return <Loaded {...props} />;
    return (
      <Suspense fallback={fallback(props)}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return { Component, preload };
}
