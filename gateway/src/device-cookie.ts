// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
// signed in to an account before is known to the gateway by a signed cookie, and a lock of that account
// from failed guesses does not lock it out. Without it, anyone who knows an email can keep its owner out for
// as long as they keep guessing wrong (ten guesses every fifteen minutes).
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'koa';

export const DEVICE_COOKIE = 'tm.device';
/** How long a browser stays known after its last sign-in there. */
const DEVICE_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

/** The account as the cookie names it: a digest, so the cookie never carries the email itself. */
function accountTag(account: string): string {
  return createHash('sha256').update(account).digest('base64url').slice(0, 22);
}

/**
 * The device id, when the request brings a valid device cookie (signed with the session keys) for this
 * account; undefined otherwise (none, forged, or another account's).
 */
export function knownDevice(ctx: Context, account: string): string | undefined {
  const value = ctx.cookies.get(DEVICE_COOKIE, { signed: true });
  if (!value) return undefined;
  const [tag, device] = value.split('.');
  return tag === accountTag(account) && device && /^[A-Za-z0-9_-]{22}$/.test(device) ? device : undefined;
}

/** After a successful sign-in: this browser is a known device of the account (a new id, for a year). */
export function rememberDevice(ctx: Context, account: string): void {
  const device = randomBytes(16).toString('base64url');
  ctx.cookies.set(DEVICE_COOKIE, `${accountTag(account)}.${device}`, {
    httpOnly: true,
    sameSite: 'lax',
    signed: true,
    overwrite: true,
    path: '/api/user',
    maxAge: DEVICE_MAX_AGE_MS,
  });
}
