import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * The signing keys of the cookies (`app.keys`), a drop-in for the `keygrip` object Koa builds from a list of
 * strings: the same signatures (HMAC-SHA1, base64url: cookies signed before keep verifying), the first key
 * signs, every key verifies (rotation). Cheaper per request (profile of the gateway): each key is
 * imported once instead of on every HMAC, and a signature is compared with `crypto.timingSafeEqual` instead
 * of keygrip's two extra HMACs under a fresh random key, which had made reading the session cookie cost more
 * than reading the session itself.
 */
export class CookieKeys {
  private readonly keys: KeyObject[];

  constructor(secrets: readonly string[]) {
    if (secrets.length === 0) throw new Error('At least one cookie signing key is needed');
    this.keys = secrets.map((secret) => createSecretKey(Buffer.from(secret, 'utf8')));
  }

  /** The signature of `data` under the newest key. */
  sign(data: string): string {
    return this.signWith(this.keys[0] as KeyObject, data);
  }

  verify(data: string, digest: string): boolean {
    return this.index(data, digest) !== -1;
  }

  /** Which key signed `data` as `digest`, or -1 when none did. */
  index(data: string, digest: string): number {
    const given = Buffer.from(digest, 'utf8');
    return this.keys.findIndex((key) => {
      const expected = Buffer.from(this.signWith(key, data), 'utf8');
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  }

  private signWith(key: KeyObject, data: string): string {
    return createHmac('sha1', key).update(data).digest('base64url');
  }
}
