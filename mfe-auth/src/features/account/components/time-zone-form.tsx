import { browserTimeZone, type PublicUser } from '@tm/api-client';
import { useEffect, useId, useMemo, useRef, useState, type SubmitEvent } from 'react';
import { FormAlert } from '../../../common/forms/form-alert';
import { useFormErrors } from '../../../common/forms/form-errors';
import { timeZoneErrors, useUpdateProfile, type TimeZoneField } from '../api/account';
import { useOneAtATime } from './use-one-at-a-time';
import { useSubmitFocus } from './use-submit-focus';

/** The note under the field while the account has no zone and the browser's is shown (docs/PRODUCT.md §10.10). */
export const FROM_THIS_BROWSER = 'From this browser';

/**
 * The zones to choose from: every zone this browser lists (`Intl.supportedValuesOf('timeZone')`), plus the
 * given ones it may not list (`UTC`, an alias such as `Asia/Calcutta` kept by the account), each once, sorted.
 */
export function timeZoneChoices(shown: readonly string[]): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...listed, ...shown])].sort((a, b) => a.localeCompare(b, 'en'));
}

/** A zone as a person reads it: `America/New_York` → "America/New York". */
const zoneLabel = (zone: string) => zone.replaceAll('_', ' ');

/**
 * "Time zone" (docs/PRODUCT.md §10.10, §10.14): the zone due dates are read in, a native select of the zones
 * this browser knows, with the account's zone selected; an account without one shows this browser's, noted
 * "From this browser", and nothing is written until the person saves. Saved with its own button through the
 * profile call (`timeZone` alone); on success the page and every tab have it at once and the server's message
 * is toasted, a refusal is said at the field, anything else above it. The choice follows a change made in
 * another tab unless the person has picked another one here.
 */
export function TimeZoneForm({ user }: { user: PublicUser }) {
  const { mutateAsync, isPending } = useUpdateProfile();
  const once = useOneAtATime();
  const { errors, form, refuse, reset, clear } = useFormErrors<TimeZoneField>();
  const { submitButton, start, settle } = useSubmitFocus(form);
  const browserZone = useMemo(() => browserTimeZone(), []);
  const accountZone = user.timeZone ?? browserZone;
  const [zone, setZone] = useState(accountZone);
  const shown = useRef(accountZone);
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  useEffect(() => {
    const before = shown.current;
    shown.current = accountZone;
    setZone((picked) => (picked === before ? accountZone : picked));
  }, [accountZone]);

  const choices = useMemo(() => timeZoneChoices([zone, accountZone]), [zone, accountZone]);
  const fromBrowser = user.timeZone === undefined && zone === browserZone;
  const describedBy = [errors.timeZone && errorId, fromBrowser && hintId].filter(Boolean).join(' ') || undefined;

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    once(() => {
      reset();
      start();
      return mutateAsync({ timeZone: zone }, { onError: (error) => refuse(timeZoneErrors(error)), onSettled: settle });
    });
  }

  const clearZone = clear('timeZone');

  return (
    <form ref={form} className="auth-form" onSubmit={onSubmit} aria-busy={isPending || undefined}>
      <FormAlert message={errors.form} />
      <div className="auth-form__field">
        <label className="auth-form__label" htmlFor={id}>
          Time zone
        </label>
        <select
          className="auth-form__input"
          id={id}
          name="timeZone"
          value={zone}
          disabled={isPending}
          aria-invalid={errors.timeZone ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            clearZone();
            setZone(event.target.value);
          }}
        >
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {zoneLabel(choice)}
            </option>
          ))}
        </select>
        {errors.timeZone && (
          <p className="auth-form__field-error" id={errorId}>
            {errors.timeZone}
          </p>
        )}
        {fromBrowser && (
          <p className="auth-form__hint" id={hintId}>
            {FROM_THIS_BROWSER}
          </p>
        )}
      </div>
      <button ref={submitButton} className="auth-form__submit" type="submit" aria-disabled={isPending || undefined}>
        {isPending ? 'Saving…' : 'Save time zone'}
      </button>
    </form>
  );
}
