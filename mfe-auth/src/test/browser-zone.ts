// Shared by this app's component tests: a browser in another time zone (docs/PRODUCT.md §10.14). jsdom reports
// the zone of the machine running the tests; this makes `Intl.DateTimeFormat().resolvedOptions().timeZone`
// name `zone` instead, as a browser there would.

/** Makes this browser report `zone` until the returned function is called. */
export function pretendBrowserZone(zone: string): () => void {
  // The method itself, typed with its `this`, to call for the other options of each formatter.
  const resolved = Object.getOwnPropertyDescriptor(Intl.DateTimeFormat.prototype, 'resolvedOptions')?.value as (
    this: Intl.DateTimeFormat,
  ) => Intl.ResolvedDateTimeFormatOptions;
  const spy = jest.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...resolved.call(this), timeZone: zone };
  });
  return () => spy.mockRestore();
}
