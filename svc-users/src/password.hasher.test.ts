import { Argon2idPasswordHasher } from './argon2id-password.hasher.js';
import type { PasswordHasher } from './password.hasher.js';
import { ScryptPasswordHasher } from './scrypt-password.hasher.js';

// What every hasher svc-users has used must do; the scheme-specific checks are in each hasher's own suite.
// Argon2id at the production cost (~15 ms), the legacy scrypt at a small cost (logN 10, ~2 ms) for speed.
const hashers: [string, PasswordHasher][] = [
  ['Argon2idPasswordHasher', new Argon2idPasswordHasher()],
  ['ScryptPasswordHasher (legacy)', new ScryptPasswordHasher({ logN: 10 })],
];

describe.each(hashers)('%s', (_name, hasher) => {
  const PASSWORD = 'correct horse battery staple';

  it('accepts the right password and refuses a wrong one', async () => {
    const stored = await hasher.hash(PASSWORD);
    expect(stored).not.toContain('correct horse');
    await expect(hasher.verify(PASSWORD, stored)).resolves.toBe(true);
    await expect(hasher.verify('correct horse battery stapl', stored)).resolves.toBe(false);
    await expect(hasher.verify('Correct horse battery staple', stored)).resolves.toBe(false);
    await expect(hasher.verify('', stored)).resolves.toBe(false);
  });

  it('salts every hash differently', async () => {
    const [a, b] = await Promise.all([hasher.hash('same password'), hasher.hash('same password')]);
    expect(a).not.toBe(b);
    await expect(hasher.verify('same password', a)).resolves.toBe(true);
    await expect(hasher.verify('same password', b)).resolves.toBe(true);
  });

  it('treats composed and decomposed forms of one password as the same password (NFKC)', async () => {
    await expect(hasher.verify('cafe\u0301-password', await hasher.hash('caf\u00e9-password'))).resolves.toBe(true);
    await expect(hasher.verify('\uFF41nalytical-engine', await hasher.hash('analytical-engine'))).resolves.toBe(true);
  });

  it('asks to re-hash a string it cannot read, never its own', async () => {
    expect(hasher.needsRehash(await hasher.hash(PASSWORD))).toBe(false);
    expect(hasher.needsRehash('garbage')).toBe(true);
    await expect(hasher.verify(PASSWORD, 'garbage')).resolves.toBe(false);
  });
});
