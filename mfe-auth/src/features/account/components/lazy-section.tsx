import { Suspense, useId, type ReactNode } from 'react';

/**
 * A section of the Account screen whose controls come in a chunk of their own (docs/PRODUCT.md §10.10): the
 * section, a region named by its heading like the others, is drawn at once, its controls when their chunk
 * arrives ("Loading…" until then, in the room `pendingClassName` keeps).
 */
export function LazySection({ title, pendingClassName, children }: { title: string; pendingClassName: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="auth-card account__card" aria-labelledby={headingId}>
      <h2 className="account__title" id={headingId}>
        {title}
      </h2>
      <Suspense fallback={<p className={`account__text ${pendingClassName}`}>Loading…</p>}>{children}</Suspense>
    </section>
  );
}
