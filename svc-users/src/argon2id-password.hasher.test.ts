import { hash as argon2Hash, hashSync } from '@node-rs/argon2';
import { ARGON2ID_PARAMS, Argon2idPasswordHasher } from './argon2id-password.hasher.js';
import { ScryptPasswordHasher } from './scrypt-password.hasher.js';

// Every test runs at the production cost (~15 ms a hash). Legacy scrypt strings are made at logN 10 (~2 ms);
// verification reads the cost from the string, so that is the same code path as N = 2^17 (whose own check is
// in scrypt-password.hasher.test.ts).
const hasher = new Argon2idPasswordHasher();
const legacy = new ScryptPasswordHasher({ logN: 10 });
const PHC = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const PASSWORD = 'correct horse battery staple';

describe('Argon2idPasswordHasher', () => {
  it("stores the PHC string $argon2id$v=19$m=19456,t=2,p=1$salt$hash (OWASP's parameters, 16-byte salt, 32-byte hash)", async () => {
    expect(ARGON2ID_PARAMS).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 });
    const stored = await hasher.hash(PASSWORD);
    const [, salt, key] = PHC.exec(stored) ?? [];
    expect(Buffer.from(salt ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(key ?? '', 'base64')).toHaveLength(32);
    expect(PHC.exec(await hasher.hash(PASSWORD))?.[1]).not.toBe(salt);
  });

  describe('with a password stored by scrypt before the move to Argon2id', () => {
    let stored: string;
    beforeAll(async () => {
      stored = await legacy.hash(PASSWORD);
    });

    it('verifies it by the scheme the string names', async () => {
      expect(stored.startsWith('scrypt$10$8$1$')).toBe(true);
      await expect(hasher.verify(PASSWORD, stored)).resolves.toBe(true);
      await expect(hasher.verify('not the password', stored)).resolves.toBe(false);
    });

    it('asks to re-hash it', () => {
      expect(hasher.needsRehash(stored)).toBe(true);
    });
  });

  it('asks to re-hash an Argon2id string made at another cost, and still verifies it', async () => {
    const cheaper = await argon2Hash(PASSWORD, { memoryCost: 8_192, timeCost: 3, parallelism: 1 });
    expect(cheaper.startsWith('$argon2id$v=19$m=8192,t=3,p=1$')).toBe(true);
    expect(hasher.needsRehash(cheaper)).toBe(true);
    await expect(hasher.verify(PASSWORD, cheaper)).resolves.toBe(true);
  });

  describe('with a stored string it cannot read', () => {
    let valid: string;
    beforeAll(async () => {
      valid = await hasher.hash(PASSWORD);
    });
    const replaceParams = (params: string) => (s: string) => s.replace('m=19456,t=2,p=1', params);
    const mutations: [string, (stored: string) => string][] = [
      ['empty', () => ''],
      ['garbage', () => 'garbage'],
      ['another scheme', () => '$2b$10$abcdefghijklmnopqrstuvABCDEFGHIJKLMNOPQRSTUVWXYZ01234'],
      ['Argon2i instead of Argon2id', (s) => s.replace('$argon2id$', '$argon2i$')],
      ['no version', (s) => s.replace('$v=19', '')],
      ['an old version', (s) => s.replace('$v=19', '$v=16')],
      ['a part missing', (s) => s.split('$').slice(0, 5).join('$')],
      ['an extra part', (s) => `${s}$extra`],
      ['an extra parameter', (s) => s.replace(',p=1', ',p=1,keyid=abc')],
      ['a memory cost of 95 GiB', replaceParams('m=99999999,t=2,p=1')],
      ['a memory cost over the bound (128 MiB)', replaceParams('m=131072,t=2,p=1')],
      ['a time cost over the bound', replaceParams('m=19456,t=50,p=1')],
      ['memory times passes over the bound', replaceParams('m=65536,t=4,p=1')],
      ['a parallelism over the bound', replaceParams('m=19456,t=2,p=64')],
      ['a zero cost', replaceParams('m=19456,t=0,p=1')],
      ['less memory than Argon2 allows', replaceParams('m=4,t=2,p=1')],
      ['a non-numeric cost', replaceParams('m=lots,t=2,p=1')],
      ['a short salt', (s) => s.replace(/\$[^$]+\$([^$]+)$/, '$c2FsdHNhbHQ$$$1')],
      ['a salt that is not base64', (s) => s.replace(/\$[^$]+\$([^$]+)$/, '$!!not-base64-at-all!!$$$1')],
      ['a truncated hash', (s) => s.slice(0, -10)],
      ['a hash of an impossible length', (s) => s.slice(0, -2)],
      ['a corrupt scrypt string', () => 'scrypt$40$8$1$c2FsdHNhbHRzYWx0c2FsdA==$aGFzaA=='],
    ];

    it.each(mutations)('returns false without throwing for %s, and asks to re-hash it', async (_name, mutate) => {
      const broken = mutate(valid);
      expect(broken).not.toBe(valid);
      await expect(hasher.verify(PASSWORD, broken)).resolves.toBe(false);
      expect(hasher.needsRehash(broken)).toBe(true);
    });

    it('still does a full Argon2id run, so it takes about as long as a real check', async () => {
      // Not a speed target: a ratio of medians, loose enough for a busy machine. Without the equal-work path
      // an unreadable string answers in microseconds against ~15 ms (a ratio near 0).
      const medianMs = async (stored: string): Promise<number> => {
        const samples: number[] = [];
        for (let i = 0; i < 5; i += 1) {
          const start = performance.now();
          await hasher.verify('wrong password', stored);
          samples.push(performance.now() - start);
        }
        return samples.sort((a, b) => a - b)[2]!;
      };
      const real = await medianMs(valid);
      const malformed = await medianMs('garbage');
      expect(malformed).toBeGreaterThan(real * 0.3);
    });
  });

  describe('off the event loop', () => {
    /**
     * Counts the turns of the event loop (a zero-delay timer re-armed each time) while `work` is pending.
     * A hasher that ran on the loop's thread would hold it for the whole of `work`: no turn at all.
     */
    async function loopTurnsDuring(work: () => Promise<unknown>): Promise<number> {
      let turns = 0;
      let pending = true;
      const tick = (): void => {
        if (!pending) return;
        turns += 1;
        setTimeout(tick, 0);
      };
      setTimeout(tick, 0);
      try {
        await work();
      } finally {
        pending = false;
      }
      return turns;
    }

    it('keeps the event loop turning while several hashes and checks run (libuv thread pool)', async () => {
      const stored = await hasher.hash(PASSWORD);
      const scrypt = await legacy.hash(PASSWORD);
      const turns = await loopTurnsDuring(() =>
        Promise.all([
          ...Array.from({ length: 4 }, (_, i) => hasher.hash(`password number ${i}`)),
          hasher.verify(PASSWORD, stored),
          hasher.verify(PASSWORD, scrypt),
          hasher.verify(PASSWORD, 'garbage'),
        ]),
      );
      expect(turns).toBeGreaterThan(0);
    });

    it('detects a hasher that blocks the loop (the check above can fail)', async () => {
      const blocking = async (): Promise<void> => {
        for (let i = 0; i < 4; i += 1) hashSync(`password number ${i}`, ARGON2ID_PARAMS);
      };
      expect(await loopTurnsDuring(blocking)).toBe(0);
    });
  });
});
