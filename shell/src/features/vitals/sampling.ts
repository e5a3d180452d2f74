// Which page loads report their vitals (docs/OPERATIONS.md "What users feel (RUM)"). Its own module, with no
// imports: bootstrap.tsx decides before anything else is downloaded, so a page load outside the sample costs
// nothing at all, and this is all the first load carries of the reporting.

/** The share of page loads reported when the build sets none (RUM_SAMPLE_RATE at build time). */
export const DEFAULT_SAMPLE_RATE = 0.1;

/**
 * localStorage key that overrides the build's rate in one browser (`'1'`: always report; `'0'`: never):
 * for whoever checks the reporting by hand, and the browser test. The app never writes it.
 */
export const SAMPLE_RATE_KEY = 'tm:rum-sample-rate';

/** A rate in [0, 1] from text, or undefined when the text is not one. */
function rateFrom(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || text.trim() === '') return undefined;
  const rate = Number(text);
  return Number.isFinite(rate) && rate >= 0 && rate <= 1 ? rate : undefined;
}

/** The rate in force: this browser's override, else the build's, else {@link DEFAULT_SAMPLE_RATE}. */
export function sampleRate(built: string | undefined, override: string | null): number {
  return rateFrom(override) ?? rateFrom(built) ?? DEFAULT_SAMPLE_RATE;
}

/** Whether this page load is in the sample (decided once, before anything is downloaded for it). */
export function isSampled(rate: number, random: () => number = Math.random): boolean {
  return rate > 0 && random() < rate;
}

/** This browser's override ({@link SAMPLE_RATE_KEY}); none when storage cannot be read (some privacy modes throw). */
function storedOverride(): string | null {
  try {
    return localStorage.getItem(SAMPLE_RATE_KEY);
  } catch {
    return null;
  }
}

/** Whether this page load reports its vitals, at the rate the build set (`built`) unless this browser overrides it. */
export function pageInSample(built: string | undefined, random: () => number = Math.random): boolean {
  return isSampled(sampleRate(built, storedOverride()), random);
}
