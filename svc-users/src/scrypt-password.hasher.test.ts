import { DEFAULT_LOG_N, ScryptPasswordHasher } from './scrypt-password.hasher.js';

// Format and logic checks use a small cost (logN 10, ~2 ms) for speed; the last block uses the real default.
const fast = new ScryptPasswordHasher({ logN: 10 });
const FORMAT = /^scrypt\$(\d+)\$8\$1\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

describe('ScryptPasswordHasher', () => {
  it('stores scrypt$logN$r$p$salt$hash with a 16-byte salt and a 64-byte key', async () => {
    const stored = await fast.hash('correct horse battery staple');
    const match = FORMAT.exec(stored);
    expect(match).not.toBeNull();
    const [, logN, salt, key] = match!;
    expect(logN).toBe('10');
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64')).toHaveLength(64);
    expect(stored).not.toContain('correct horse');
  });

  it('reads the cost from the stored string, so other parameters still verify (and ask to be re-hashed)', async () => {
    const older = await new ScryptPasswordHasher({ logN: 11 }).hash('pa55word!');
    await expect(fast.verify('pa55word!', older)).resolves.toBe(true);
    expect(fast.needsRehash(older)).toBe(true);
  });

  it('refuses a cost outside its bounds at construction', () => {
    expect(() => new ScryptPasswordHasher({ logN: 4 })).toThrow(RangeError);
    expect(() => new ScryptPasswordHasher({ logN: 30 })).toThrow(RangeError);
  });

  describe('with a malformed stored string', () => {
    let valid: string;
    beforeAll(async () => {
      valid = await fast.hash('pa55word!');
    });
    const mutations: [string, (stored: string) => string][] = [
      ['empty', () => ''],
      ['not a scrypt string', () => 'bcrypt$2b$10$abc'],
      ['a part missing', (s) => s.split('$').slice(0, 5).join('$')],
      ['an extra part', (s) => `${s}$extra`],
      ['a wrong prefix', (s) => s.replace(/^scrypt/, 'scrypt2')],
      ['a non-numeric cost', (s) => s.replace('$10$', '$ten$')],
      ['a huge cost', (s) => s.replace('$10$', '$40$')],
      ['a cost needing too much memory', (s) => s.replace('$10$8$', '$20$8$')],
      ['a zero parallelism', (s) => s.replace('$8$1$', '$8$0$')],
      ['a salt that is not base64', (s) => s.replace(/\$[^$]+\$([^$]+)$/, '$!!notbase64!!$$$1')],
      ['a short salt', (s) => s.replace(/\$[^$]+\$([^$]+)$/, '$c2FsdA==$$$1')],
      ['a truncated key', (s) => s.replace(/\$[^$]+$/, '$aGFzaA==')],
    ];

    it.each(mutations)('returns false without throwing for %s', async (_name, mutate) => {
      const broken = mutate(valid);
      expect(broken).not.toBe(valid);
      await expect(fast.verify('pa55word!', broken)).resolves.toBe(false);
    });

    it('still does a full scrypt run, so it takes as long as a real check', async () => {
      const slow = new ScryptPasswordHasher({ logN: 15 });
      const realStored = await slow.hash('pa55word!');
      const time = async (stored: string): Promise<number> => {
        const start = performance.now();
        await slow.verify('wrong password', stored);
        return performance.now() - start;
      };
      const real = await time(realStored);
      const malformed = await time('garbage');
      expect(malformed).toBeGreaterThan(real * 0.4);
    });
  });

  describe('at the production cost', () => {
    const production = new ScryptPasswordHasher();

    it('defaults to N = 2^17 and still verifies within a second or two', async () => {
      expect(DEFAULT_LOG_N).toBe(17);
      const stored = await production.hash('pa55word!');
      expect(stored.startsWith('scrypt$17$8$1$')).toBe(true);
      await expect(production.verify('pa55word!', stored)).resolves.toBe(true);
      await expect(production.verify('pa55word?', stored)).resolves.toBe(false);
    });
  });
});
