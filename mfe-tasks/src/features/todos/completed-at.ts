/** Midnight of `date`'s day, in the person's time zone. */
function dayStart(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/**
 * When something happened, in words: "today at 14:05", "yesterday at 09:12", "on 3 Nov at 17:40" (the year
 * added when it is not this year). Times and dates follow the person's own locale and time zone.
 */
export function dayAndTimeText(iso: string, now: Date = new Date(), locale?: string): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  const days = Math.round((dayStart(now) - dayStart(at)) / 86_400_000);
  if (days === 0) return `today at ${time}`;
  if (days === 1) return `yesterday at ${time}`;
  const sameYear = at.getFullYear() === now.getFullYear();
  const date = at.toLocaleDateString(locale, { day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) });
  return `on ${date} at ${time}`;
}

/**
 * When a task was completed, in words (docs/PRODUCT.md §10.11.3): "Completed today at 14:05", "Completed yesterday at
 * 09:12", "Completed on 3 Nov at 17:40".
 */
export function completedAtText(iso: string, now: Date = new Date(), locale?: string): string {
  return `Completed ${dayAndTimeText(iso, now, locale)}`;
}

/** The full date and time, for the tooltip. */
export function completedAtFull(iso: string, locale?: string): string {
  return new Date(iso).toLocaleString(locale, { dateStyle: 'full', timeStyle: 'short' });
}
