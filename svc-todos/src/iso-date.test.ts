import { isoDate } from './iso-date.js';

const LAST_FAST_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

describe('isoDate', () => {
  it('writes exactly what Date#toISOString writes, across 1970 to the year 9999 and within recent years', () => {
    // A fixed-seed generator (mulberry32): the same 40 000 times on every run, spread over the whole range.
    let seed = 0x5eed;
    const next = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    const recent = Date.UTC(2020, 0, 1);
    for (let i = 0; i < 20_000; i += 1) {
      const anywhere = Math.floor(next() * LAST_FAST_MS);
      const lately = recent + Math.floor(next() * 10 * 365 * 86_400_000);
      expect(isoDate(anywhere)).toBe(new Date(anywhere).toISOString());
      expect(isoDate(lately)).toBe(new Date(lately).toISOString());
    }
  });

  it('handles the edges: midnight, the last millisecond of a day, leap days, and times outside the fast range', () => {
    const edges = [0, 86_399_999, 86_400_000, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2000, 1, 29), LAST_FAST_MS, -1, -86_400_001, LAST_FAST_MS + 1, 1.5];
    for (const ms of edges) expect(isoDate(ms)).toBe(new Date(ms).toISOString());
  });
});
