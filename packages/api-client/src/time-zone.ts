import type { PublicUser } from '@tm/contracts';

/**
 * The zone this browser runs in (`Intl.DateTimeFormat().resolvedOptions().timeZone`), e.g. `Europe/Paris`; `UTC`
 * when the runtime names none.
 */
export function browserTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The person's time zone (docs/PRODUCT.md §10.10, §10.14): the account's when it has one, else this browser's.
 * Due dates are days and times in it (`todayIn`, `nowIn` of @tm/contracts). Reading it writes nothing: an account
 * without a zone follows whichever browser it is used in until the person chooses one on the account page.
 */
export function personTimeZone(user: PublicUser | null | undefined): string {
  return user?.timeZone ?? browserTimeZone();
}
