import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';
import { normalizePassword, type PasswordHasher } from './password.hasher.js';

const scryptAsync = promisify<string | Buffer, Buffer, number, ScryptOptions, Buffer>(scrypt);

interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}

/**
 * The scheme passwords were stored with before Argon2id, kept so those strings still verify until
 * their owners next sign in. OWASP's scrypt parameters N=2^17, r=8, p=1: about 450 ms of a core and a 128 MiB
 * work area per check on libuv's pool (`pnpm bench`, perf/bench/bench-hash.mjs), ~4 sign-ins/s on 2 cores.
 */
export const DEFAULT_LOG_N = 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;
/** Node's default scrypt memory cap is 32 MiB; 128 * N * r is 128 MiB at the default cost. */
const MAX_MEMORY = 256 * 1024 * 1024;
const PREFIX = 'scrypt';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const DIGITS = /^[1-9]\d{0,2}$/;

export interface ScryptHasherOptions {
  /** log2 of scrypt's N. Production always uses the default; a smaller value is only for fast tests. */
  logN?: number;
}

/**
 * scrypt with a random 16-byte salt per password, stored as `scrypt$<logN>$<r>$<p>$<salt b64>$<hash b64>`;
 * verification reads the parameters from the stored string. svc-users no longer writes these (see
 * Argon2idPasswordHasher): it verifies the ones already stored, and tests and the benchmark make them.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  private readonly params: ScryptParams;

  constructor({ logN = DEFAULT_LOG_N }: ScryptHasherOptions = {}) {
    this.params = { logN, r: R, p: P };
    if (!withinBounds(this.params)) throw new RangeError(`scrypt logN ${logN} is out of bounds (10 to ${DEFAULT_LOG_N})`);
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await derive(password, salt, KEY_LENGTH, this.params);
    const { logN, r, p } = this.params;
    return [PREFIX, logN, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const parsed = parse(stored);
    if (!parsed) {
      // Same work as a real check, so an unreadable record cannot be told apart by response time.
      await derive(password, randomBytes(SALT_BYTES), KEY_LENGTH, this.params);
      return false;
    }
    const key = await derive(password, parsed.salt, parsed.key.length, parsed.params);
    return timingSafeEqual(key, parsed.key);
  }

  needsRehash(stored: string): boolean {
    const parsed = parse(stored);
    if (!parsed) return true;
    const { logN, r, p } = parsed.params;
    return logN !== this.params.logN || r !== this.params.r || p !== this.params.p || parsed.key.length !== KEY_LENGTH;
  }
}

/** True when `stored` is a readable scrypt string within bounds (one {@link ScryptPasswordHasher} can check). */
export function isScryptHash(stored: string): boolean {
  return parse(stored) !== null;
}

function derive(password: string, salt: Buffer, keyLength: number, { logN, r, p }: ScryptParams): Promise<Buffer> {
  return scryptAsync(normalizePassword(password), salt, keyLength, { N: 2 ** logN, r, p, maxmem: MAX_MEMORY });
}

function parse(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6) return null;
  const [prefix, logN, r, p, salt, key] = parts as [string, string, string, string, string, string];
  if (prefix !== PREFIX || ![logN, r, p].every((n) => DIGITS.test(n))) return null;
  if (!BASE64.test(salt) || !BASE64.test(key)) return null;
  const params = { logN: Number(logN), r: Number(r), p: Number(p) };
  const saltBytes = Buffer.from(salt, 'base64');
  const keyBytes = Buffer.from(key, 'base64');
  if (!withinBounds(params) || saltBytes.length < SALT_BYTES || keyBytes.length < 32 || keyBytes.length > 128) {
    return null;
  }
  return { params, salt: saltBytes, key: keyBytes };
}

/**
 * Bounds a stored string may ask for, so a corrupt record cannot demand unbounded memory or time. The memory
 * term is OpenSSL's own check (128·r·(N+2) + 128·r·p ≤ maxmem): raising the cost later means raising MAX_MEMORY.
 */
function withinBounds({ logN, r, p }: ScryptParams): boolean {
  if (![logN, r, p].every(Number.isInteger)) return false;
  if (logN < 10 || logN > 20 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  return 128 * r * (2 ** logN + 2 + p) <= MAX_MEMORY;
}
