import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify<string | Buffer, Buffer, number, ScryptOptions, Buffer>(scrypt);

/** Turns passwords into self-describing stored strings and checks a password against one. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a stored string that cannot be read; never throws for either. */
  verify(password: string, stored: string): Promise<boolean>;
}

interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}

/**
 * OWASP Password Storage Cheat Sheet: scrypt N=2^17, r=8, p=1. Measured on the dev machine (2 vCPU, Node 20.20,
 * `npx tsx svc-users/bench/scrypt.bench.ts`): one hash takes a median 490 ms (422–536 ms), and 8 at once
 * finish in 1.8 s (~4.5/s per process). Each runs on libuv's pool with a 128 MiB work area, so 4 concurrent
 * logins hold ~512 MiB: login rate limiting (the gateway's 429) protects both CPU and memory.
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
 * scrypt with a random 16-byte salt per password, stored as `scrypt$<logN>$<r>$<p>$<salt b64>$<hash b64>`
 * so the cost can be raised later: verification reads the parameters from the stored string.
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
}

function derive(password: string, salt: Buffer, keyLength: number, { logN, r, p }: ScryptParams): Promise<Buffer> {
  // NFKC (NIST SP 800-63B §5.1.1.2): the same password typed on another keyboard or OS must match.
  return scryptAsync(password.normalize('NFKC'), salt, keyLength, { N: 2 ** logN, r, p, maxmem: MAX_MEMORY });
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
