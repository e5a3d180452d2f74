// A calendar feed (docs/PRODUCT.md §10.18) read back the way a calendar app reads it: parsed by Mozilla's
// iCalendar library (ical.js), not by our own code, then turned into plain values for assertions.

/** One event of a feed, as the parser read it. */
export interface CalendarEvent {
  uid: string;
  summary: string;
  /** `2027-03-14` for an all-day event; `2027-03-15T09:00:00` (floating), with `Z` when in UTC. */
  start: string;
  allDay: boolean;
  /** Neither UTC nor a zone of its own: the calendar's own clock. */
  floating: boolean;
  end: string | null;
  /** The RRULE value, or null for an event that does not repeat. */
  rrule: string | null;
  /** `X-TM-REPEAT-FROM`, or null. */
  repeatFrom: string | null;
  transparency: string | null;
  /** The first `count` starts of the event (its own start first), by the parser's expansion of the RRULE. */
  occurrences(count: number): string[];
}

export interface ParsedCalendar {
  /** X-WR-CALNAME. */
  name: string | null;
  /** X-WR-TIMEZONE. */
  timeZone: string | null;
  events: CalendarEvent[];
  /** The event with this UID; throws when there is none. */
  event(uid: string): CalendarEvent;
}

/** A property's value as text (an RRULE's through its own toString), or null when absent. */
const text = (value: { toString(): string } | string | null | undefined): string | null => (value === null || value === undefined ? null : value.toString());

/** Parses iCalendar text with ical.js; throws when the parser refuses it. */
export async function parseCalendar(source: string): Promise<ParsedCalendar> {
  // ical.js ships as an ECMAScript module (with a CommonJS build): imported when needed, from any kind of module.
  const { default: ICAL } = await import('ical.js');
  const calendar = new ICAL.Component(ICAL.parse(source) as unknown[]);
  const events = calendar.getAllSubcomponents('vevent').map((component): CalendarEvent => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toString(),
      allDay: event.startDate.isDate,
      floating: event.startDate.zone === ICAL.Timezone.localTimezone,
      end: component.hasProperty('dtend') ? event.endDate.toString() : null,
      rrule: text(component.getFirstPropertyValue('rrule')),
      repeatFrom: text(component.getFirstPropertyValue('x-tm-repeat-from')),
      transparency: text(component.getFirstPropertyValue('transp')),
      occurrences: (count) => {
        const iterator = event.iterator();
        const starts: string[] = [];
        for (let next = iterator.next(); next && starts.length < count; next = iterator.next()) starts.push(next.toString());
        return starts;
      },
    };
  });
  return {
    name: text(calendar.getFirstPropertyValue('x-wr-calname')),
    timeZone: text(calendar.getFirstPropertyValue('x-wr-timezone')),
    events,
    event: (uid) => {
      const found = events.find((event) => event.uid === uid);
      if (!found) throw new Error(`the calendar has no event ${uid} (it has ${events.map((event) => event.uid).join(', ') || 'none'})`);
      return found;
    },
  };
}
