import { useDeviceReminders } from '@tm/web-platform/reminders';
import { useId } from 'react';

/** What each state says (PRODUCT §10.17 "Reminders on this device"). */
const STATE_TEXT = {
  checking: 'Checking this browser…',
  unsupported: 'This browser cannot show notifications from the app. Open reminders still show in the page while it is open.',
  blocked:
    "Notifications are blocked for this site in this browser. To turn reminders on, allow notifications in the site's settings (the icon beside the address), then come back.",
  off: 'Off. Reminders show in the page while it is open; turn them on to get them when it is closed.',
  on: 'On. This browser shows a notification at each reminder, even when the app is closed.',
} as const;

/**
 * "Reminders on this device" (PRODUCT §10.17): the state of this browser and one button. The permission is
 * asked only when the person presses "Turn on", never on load. Loaded after the account page
 * (device-reminders-section.tsx), outside its first-load budget.
 */
export default function DeviceRemindersPanel() {
  const headingId = useId();
  const { status, busy, turnOn, turnOff } = useDeviceReminders();
  const text = status.state === 'failed' ? status.message : STATE_TEXT[status.state];
  return (
    <section className="auth-card account__card" aria-labelledby={headingId}>
      <h2 className="account__title" id={headingId}>
        Reminders on this device
      </h2>
      <p className="account__text" role="status">
        {text}
      </p>
      {status.state === 'on' ? (
        <button type="button" className="account-button" disabled={busy} onClick={() => void turnOff()}>
          Turn off on this device
        </button>
      ) : status.state === 'off' || status.state === 'failed' ? (
        <button type="button" className="account-button" disabled={busy} onClick={() => void turnOn()}>
          Turn on
        </button>
      ) : null}
    </section>
  );
}
