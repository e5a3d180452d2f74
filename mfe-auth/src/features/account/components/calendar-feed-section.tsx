import { lazy } from 'react';
import { LazySection } from './lazy-section';

/** The controls come with their own chunk when the page is drawn: the account page's first load stays within its budget. */
const CalendarFeedControls = lazy(() => import('./calendar-feed-controls'));

/**
 * "Calendar feed" of the Account screen (docs/PRODUCT.md §10.18): a secret iCalendar address of the account's
 * dated tasks, for Google Calendar or Apple Calendar to subscribe to. The section and its heading are drawn at
 * once (a region named by its heading, like the other sections); its controls arrive with their chunk.
 */
export function CalendarFeedSection() {
  return (
    <LazySection title="Calendar feed" pendingClassName="calendar-feed__pending">
      <CalendarFeedControls />
    </LazySection>
  );
}
