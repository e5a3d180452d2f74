import { lazy } from 'react';
import { LazySection } from './lazy-section';

/** The controls come with their own chunk when the page is drawn: the account page's first load stays within its budget. */
const TransferControls = lazy(() => import('./transfer-controls'));

/**
 * "Your data" of the Account screen (docs/PRODUCT.md §10.23): everything as a JSON or CSV file, and tasks brought
 * in from our JSON or a Todoist project's CSV. The section and its heading are drawn at once; its controls (the
 * export, the file's reading, the import's preview and report) arrive with their chunk.
 */
export function TransferSection() {
  return (
    <LazySection title="Your data" pendingClassName="transfer__pending">
      <TransferControls />
    </LazySection>
  );
}
