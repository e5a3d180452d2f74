import { generateKeyBetween } from 'fractional-indexing';
import { LIMITS } from './limits.js';

// Order keys (docs/PRODUCT.md §10.19), apart from list-rules.ts: only what places a list or a task needs the
// key library (fractional-indexing 2.1.0, its CommonJS build, which both the service and the bundles load).

/**
 * An order key strictly between `before` and `after` (`null`: the start or the end), fractional-indexing's
 * base-62 keys: moving one list or task writes its own key only, never renumbers the others. Keys compare as
 * plain strings (code unit order, which `<` and SQLite's BINARY and MongoDB's simple collation all use);
 * equal keys (two devices placing at once) fall back to the id.
 */
export function orderKeyBetween(before: string | null, after: string | null): string {
  return generateKeyBetween(before, after);
}

/**
 * Whether `key` is an order key {@link orderKeyBetween} could have made: base-62 digits only (the library
 * checks the integer part and the trailing zero when placing after it, not the characters of the fraction,
 * so a key such as "a0 " or "a0~" is refused here), at most LIMITS.orderKey.max of them.
 */
export function isOrderKey(key: string): boolean {
  if (key.length === 0 || key.length > LIMITS.orderKey.max || !/^[0-9A-Za-z]+$/.test(key)) return false;
  try {
    generateKeyBetween(key, null);
    return true;
  } catch {
    return false;
  }
}
