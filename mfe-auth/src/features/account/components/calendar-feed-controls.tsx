import { useEffect, useId, useRef, useState } from 'react';
import { notifyError, notifySuccess } from '@tm/web-platform';
import { FormAlert } from '../../../common/forms/form-alert';
import { useCalendarFeed, useTurnOffCalendarFeed, useTurnOnCalendarFeed } from '../api/calendar-feed';
import { ConfirmDialog } from './confirm-dialog';
import { useOneAtATime } from './use-one-at-a-time';
import './calendar-feed.css';

export const CALENDAR_FEED_OFF_TEXT = 'Subscribe to your dated tasks from Google Calendar or Apple Calendar with a private address.';
export const CALENDAR_FEED_ADDRESS_TEXT = 'Subscribe from Google Calendar or Apple Calendar with this address; anyone with it can see your dated tasks.';
export const CALENDAR_FEED_HIDDEN_TEXT =
  'Your feed is on. Its address was shown once, when it was made: to subscribe another calendar, get a new address (the current one then stops working).';
export const NEW_ADDRESS_QUESTION = 'Get a new address?';
export const NEW_ADDRESS_CONSEQUENCE = 'The current address stops working: calendars subscribed to it stop updating until they subscribe to the new one.';
export const TURN_OFF_QUESTION = 'Turn off the calendar feed?';
export const TURN_OFF_CONSEQUENCE = 'Its address stops working: calendars subscribed to it stop updating.';
export const COPIED_MESSAGE = 'Address copied';
export const COPY_FAILED_MESSAGE = 'The address could not be copied: it is selected, copy it yourself.';
const CHECK_FAILED_MESSAGE = 'Whether your calendar feed is on could not be checked.';

/** The dialog of each confirmed action: a new address, or the feed off. */
const CONFIRMATIONS = {
  'new-address': { title: NEW_ADDRESS_QUESTION, description: NEW_ADDRESS_CONSEQUENCE, confirmLabel: 'Get a new address', pendingLabel: 'Making a new address…' },
  'turn-off': { title: TURN_OFF_QUESTION, description: TURN_OFF_CONSEQUENCE, confirmLabel: 'Turn off', pendingLabel: 'Turning off…' },
} as const;

/** The day a feed was made, in the person's words ("3 March 2027"); the full time as its tooltip. */
function sinceText(since: string | undefined): string | null {
  if (since === undefined) return null;
  return new Date(since).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
}

/**
 * The feed's controls (docs/PRODUCT.md §10.18), in the section's own chunk. Off: **Turn on calendar feed**. Just
 * turned on or given a new address: the address in a read-only field with **Copy address** and what it is for
 * (the server keeps only a digest of it, so the page shows it this once). On, address not at hand: when it was
 * made. On either way: **Get a new address** and **Turn off**, each confirmed in a dialog. After each change the
 * focus goes to what replaced the button pressed: the address field, or **Turn on calendar feed**.
 */
export default function CalendarFeedControls() {
  const { data: feed, isPending, isError, refetch } = useCalendarFeed();
  const turnOn = useTurnOnCalendarFeed();
  const turnOff = useTurnOffCalendarFeed();
  const once = useOneAtATime();
  const [address, setAddress] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<keyof typeof CONFIRMATIONS | null>(null);
  const addressField = useRef<HTMLInputElement>(null);
  const turnOnButton = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<'address' | 'turn-on' | null>(null);
  const fieldId = useId();
  const textId = `${fieldId}-text`;

  const on = feed?.on === true;
  useEffect(() => {
    const target = focusNext.current === 'address' ? addressField.current : focusNext.current === 'turn-on' ? turnOnButton.current : null;
    if (!target) return;
    focusNext.current = null;
    target.focus();
  }, [address, on]);

  if (isPending) return <p className="account__text calendar-feed__pending">Checking your calendar feed…</p>;
  if (isError) {
    return (
      <>
        <FormAlert message={CHECK_FAILED_MESSAGE} />
        <button type="button" className="account-button" onClick={() => void refetch()}>
          Try again
        </button>
      </>
    );
  }

  const makeAddress = () =>
    once(() =>
      turnOn.mutateAsync(undefined, {
        onSuccess: ({ feed: made }) => {
          focusNext.current = 'address';
          setAddress(made.url);
        },
        onSettled: () => setConfirming(null),
      }),
    );
  const stop = () =>
    once(() =>
      turnOff.mutateAsync(undefined, {
        onSuccess: () => {
          focusNext.current = 'turn-on';
          setAddress(null);
        },
        onSettled: () => setConfirming(null),
      }),
    );

  async function copy() {
    if (address === null) return;
    try {
      await navigator.clipboard.writeText(address);
      notifySuccess(COPIED_MESSAGE);
    } catch {
      addressField.current?.focus();
      addressField.current?.select();
      notifyError(COPY_FAILED_MESSAGE);
    }
  }

  if (!on) {
    return (
      <>
        <p className="account__text">{CALENDAR_FEED_OFF_TEXT}</p>
        <button ref={turnOnButton} type="button" className="account-button account-button--primary" aria-disabled={turnOn.isPending || undefined} onClick={makeAddress}>
          {turnOn.isPending ? 'Turning on…' : 'Turn on calendar feed'}
        </button>
      </>
    );
  }

  const since = sinceText(feed.since);
  return (
    <>
      {address === null ? (
        <p className="account__text">
          {CALENDAR_FEED_HIDDEN_TEXT}
          {since !== null && (
            <>
              {' '}
              <span title={feed.since}>On since {since}.</span>
            </>
          )}
        </p>
      ) : (
        <div className="auth-form__field calendar-feed__address">
          <label className="auth-form__label" htmlFor={fieldId}>
            Calendar address
          </label>
          <div className="calendar-feed__copy-row">
            <input
              ref={addressField}
              className="auth-form__input calendar-feed__url"
              id={fieldId}
              type="text"
              readOnly
              value={address}
              aria-describedby={textId}
              spellCheck={false}
              onFocus={(event) => event.currentTarget.select()}
            />
            <button type="button" className="account-button" onClick={() => void copy()}>
              Copy address
            </button>
          </div>
          <p className="auth-form__hint" id={textId}>
            {CALENDAR_FEED_ADDRESS_TEXT}
          </p>
        </div>
      )}
      <div className="calendar-feed__actions">
        <button type="button" className="account-button" onClick={() => setConfirming('new-address')}>
          Get a new address
        </button>
        <button type="button" className="account-button" onClick={() => setConfirming('turn-off')}>
          Turn off
        </button>
      </div>
      {confirming !== null && (
        <ConfirmDialog
          {...CONFIRMATIONS[confirming]}
          pending={confirming === 'new-address' ? turnOn.isPending : turnOff.isPending}
          danger={false}
          onConfirm={confirming === 'new-address' ? makeAddress : stop}
          onCancel={() => setConfirming(null)}
        />
      )}
    </>
  );
}
