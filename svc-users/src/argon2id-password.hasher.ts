import { hash as argon2Hash, verify as argon2Verify, type Algorithm, type Options } from '@node-rs/argon2';
import { normalizePassword, type PasswordHasher } from './password.hasher.js';
import { isScryptHash, ScryptPasswordHasher } from './scrypt-password.hasher.js';

/** `Algorithm.Argon2id`: the package's enum is a `const enum`, which isolated modules cannot read. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
const ARGON2ID: Algorithm = 2;

/**
 * OWASP Password Storage Cheat Sheet, Argon2id: m = 19 MiB (19456 KiB), t = 2, p = 1, a 16-byte random salt
 * (the package's) and a 32-byte hash. About 15 ms of one core per hash or check, against ~450 ms for the
 * scrypt it replaces (`pnpm bench` measures both in one run, perf/bench/bench-hash.mjs). Each runs
 * on libuv's thread pool (the async API), never on the event loop, with a 19 MiB work area.
 */
export const ARGON2ID_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

const OPTIONS: Options = { ...ARGON2ID_PARAMS, algorithm: ARGON2ID };

/**
 * What we store, exactly: the PHC string `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>` (base64
 * without padding). The package's own parser is more lenient (it takes a missing version, `keyid=`, `data=`).
 */
const PHC = /^\$argon2id\$v=19\$m=([1-9]\d{0,6}),t=([1-9]\d{0,2}),p=([1-9]\d{0,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * Bounds a stored string may ask for, so a corrupt record cannot demand unbounded memory or time (a check at
 * m = 95 GiB gets the process killed). Room to raise the cost about threefold; beyond that, raise these.
 */
const BOUNDS = { maxMemoryKiB: 64 * 1024, maxTimeCost: 8, maxWorkKiB: 128 * 1024, maxParallelism: 4 } as const;
const SALT_BYTES = { min: 16, max: 64 } as const;
const HASH_BYTES = { min: 32, max: 64 } as const;

interface Argon2idParams {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
  outputLen: number;
}

/**
 * svc-users' password hasher: writes Argon2id and verifies by the scheme the stored string names, Argon2id
 * or the scrypt strings stored before; {@link needsRehash} tells the service which ones to
 * replace at the owner's next sign-in. Argon2id is the `@node-rs/argon2` package (Rust, prebuilt binaries).
 */
export class Argon2idPasswordHasher implements PasswordHasher {
  /** Checks the legacy strings; their cost comes from the string itself, not from this instance. */
  private readonly scrypt = new ScryptPasswordHasher();

  hash(password: string): Promise<string> {
    return argon2Hash(normalizePassword(password), OPTIONS);
  }

  async verify(password: string, stored: string): Promise<boolean> {
    if (isScryptHash(stored)) return this.scrypt.verify(password, stored);
    if (!readArgon2id(stored)) {
      // Same work as a real check, so an unreadable record cannot be told apart by response time.
      await this.hash(password);
      return false;
    }
    try {
      return await argon2Verify(stored, normalizePassword(password));
    } catch {
      return false;
    }
  }

  needsRehash(stored: string): boolean {
    const params = readArgon2id(stored);
    if (!params) return true;
    return (Object.keys(ARGON2ID_PARAMS) as (keyof Argon2idParams)[]).some((key) => params[key] !== ARGON2ID_PARAMS[key]);
  }
}

/** The parameters of an Argon2id string we could have written, or null (another scheme, malformed, out of bounds). */
function readArgon2id(stored: string): Argon2idParams | null {
  const match = PHC.exec(stored);
  if (!match) return null;
  const [, m, t, p, salt, key] = match as unknown as [string, string, string, string, string, string];
  const params = { memoryCost: Number(m), timeCost: Number(t), parallelism: Number(p), outputLen: decodedLength(key) };
  const saltBytes = decodedLength(salt);
  if (saltBytes < SALT_BYTES.min || saltBytes > SALT_BYTES.max) return null;
  if (params.outputLen < HASH_BYTES.min || params.outputLen > HASH_BYTES.max) return null;
  return withinBounds(params) ? params : null;
}

/** Bytes a base64 text without padding decodes to; -1 for a length no encoder produces. */
function decodedLength(base64: string): number {
  return base64.length % 4 === 1 ? -1 : Math.floor((base64.length * 3) / 4);
}

/** Argon2 itself needs m ≥ 8·p KiB; the upper bounds are ours. */
function withinBounds({ memoryCost, timeCost, parallelism }: Argon2idParams): boolean {
  if (parallelism > BOUNDS.maxParallelism || memoryCost < 8 * parallelism) return false;
  if (memoryCost > BOUNDS.maxMemoryKiB || timeCost > BOUNDS.maxTimeCost) return false;
  return memoryCost * timeCost <= BOUNDS.maxWorkKiB;
}
