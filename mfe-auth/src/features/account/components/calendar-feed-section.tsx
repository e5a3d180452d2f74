import { lazy, Suspense, useId } from 'react';

/** The controls come with their own chunk when the page is drawn: the account page's first load stays within its budget. */
const CalendarFeedControls = lazy(() => import('./calendar-feed-controls'));

/**
 * "Calendar feed" of the Account screen (docs/PRODUCT.md §10.18): a secret iCalendar address of the account's
 * dated tasks, for Google Calendar or Apple Calendar to subscribe to. The section and its heading are drawn at
 * once (a region named by its heading, like the other sections); its controls arrive with their chunk.
 */
export function CalendarFeedSection() {
  const headingId = useId();
  return (
    <section className="auth-card account__card" aria-labelledby={headingId}>
      <h2 className="account__title" id={headingId}>
        Calendar feed
      </h2>
      <Suspense fallback={<p className="account__text calendar-feed__pending">Loading…</p>}>
        <CalendarFeedControls />
      </Suspense>
    </section>
  );
}
