import { lazy, Suspense } from 'react';

// "Reminders on this device" (PRODUCT §10.17) comes after the rest of the account page: its code (the push
// subscription and the reminders query) stays out of the page's first load (PERFORMANCE.md "First-load budgets").
const DeviceRemindersPanel = lazy(() => import('./device-reminders-panel'));

export function DeviceRemindersSection() {
  return (
    <Suspense fallback={null}>
      <DeviceRemindersPanel />
    </Suspense>
  );
}
