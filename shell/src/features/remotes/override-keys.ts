// Where a remote override is asked for (remote-overrides.ts): apart, so that the first load reads
// these two names only and loads the rest when one of them is there.

/** localStorage: `{"insights": "http://127.0.0.1:3101/mf-manifest.json"}`. */
export const OVERRIDES_KEY = 'tm-remote-overrides';
/** `?remote-override=insights=http://127.0.0.1:3101` proposes one; `?remote-override=reset` drops them all. */
export const OVERRIDE_PARAM = 'remote-override';

/** Whether this browser stored an override or the address names one (a catalog that allows none drops them). */
export function overridesAsked(): boolean {
  try {
    if (window.localStorage.getItem(OVERRIDES_KEY) !== null) return true;
  } catch {
    // No storage: nothing stored.
  }
  return new URLSearchParams(window.location.search).has(OVERRIDE_PARAM);
}
