import { CookieKeys } from './cookie-keys.js';

const NEW = 'stack-session-key-0123456789abcdef0123456789';
const OLD = 'old-key-0123456789abcdef0123456789abcd';

describe('CookieKeys (the cookie signing keys)', () => {
  it('signs exactly as keygrip did, so cookies issued before keep verifying', () => {
    // Computed with keygrip 1.1.0 (the library Koa used before): new Keygrip([NEW, OLD]).sign(...).
    const keys = new CookieKeys([NEW, OLD]);
    expect(keys.sign('tm.sid=abc123')).toBe('lZuTdu27aZI_r9iT2nFBy06jtew');
    expect(keys.sign('x')).toBe('-fJbat78Ga4u8hp_LF5AkuESz-o');
  });

  it('verifies with every key (rotation) and says which one signed', () => {
    const keys = new CookieKeys([NEW, OLD]);
    expect(keys.index('tm.sid=abc123', 'lZuTdu27aZI_r9iT2nFBy06jtew')).toBe(0);
    // Signed by keygrip with OLD alone: still accepted after NEW was put in front of it.
    expect(keys.index('tm.sid=abc123', '9hPxD-ZSNoN2PNyTiQHdkLnT6eg')).toBe(1);
    expect(keys.verify('tm.sid=abc123', '9hPxD-ZSNoN2PNyTiQHdkLnT6eg')).toBe(true);
  });

  it('refuses a signature of other data, a forged or truncated one, and one of a retired key', () => {
    const keys = new CookieKeys([NEW]);
    expect(keys.index('tm.sid=abc124', 'lZuTdu27aZI_r9iT2nFBy06jtew')).toBe(-1);
    expect(keys.index('tm.sid=abc123', 'lZuTdu27aZI_r9iT2nFBy06jteW')).toBe(-1);
    expect(keys.index('tm.sid=abc123', 'lZuTdu27aZI_r9iT2nFBy06jte')).toBe(-1);
    expect(keys.index('tm.sid=abc123', '')).toBe(-1);
    expect(keys.verify('tm.sid=abc123', '9hPxD-ZSNoN2PNyTiQHdkLnT6eg')).toBe(false);
    expect(() => new CookieKeys([])).toThrow(/At least one/);
  });
});
