import { browserTimeZone, personTimeZone } from './index.js';

/** Runs `check` with this browser pretending to be in `zone`. */
function inBrowserZone(zone: string, check: () => void): void {
  // The method itself, typed with its `this`, to call for the other options of each formatter.
  const resolved = Object.getOwnPropertyDescriptor(Intl.DateTimeFormat.prototype, 'resolvedOptions')?.value as (
    this: Intl.DateTimeFormat,
  ) => Intl.ResolvedDateTimeFormatOptions;
  const spy = jest.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...resolved.call(this), timeZone: zone };
  });
  try {
    check();
  } finally {
    spy.mockRestore();
  }
}

describe("the person's time zone (docs/PRODUCT.md §10.14)", () => {
  const user = { _id: '0123456789abcdef01234567', fullName: 'Ada', email: 'ada@example.com' };

  it("is the account's when it has one, whatever the browser's", () => {
    inBrowserZone('Pacific/Auckland', () => {
      expect(personTimeZone({ ...user, timeZone: 'Asia/Calcutta' })).toBe('Asia/Calcutta');
      expect(personTimeZone({ ...user, timeZone: 'UTC' })).toBe('UTC');
    });
  });

  it("is the browser's for an account without one, and for nobody signed in", () => {
    inBrowserZone('Pacific/Auckland', () => {
      expect(browserTimeZone()).toBe('Pacific/Auckland');
      expect(personTimeZone(user)).toBe('Pacific/Auckland');
      expect(personTimeZone(null)).toBe('Pacific/Auckland');
      expect(personTimeZone(undefined)).toBe('Pacific/Auckland');
    });
    expect(personTimeZone(user)).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
