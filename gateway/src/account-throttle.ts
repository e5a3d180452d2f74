import type { Context } from 'koa';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { clientOf } from './client-address.js';
import { createLimiter, limiterFailure } from './rate-limit.middleware.js';
import type { RedisClient } from './redis-connection.js';

export interface AccountThrottleOptions {
  /** Failed password checks of one account (from any IP) within the window that lock it; 0 disables. */
  failLimit: number;
  windowSeconds: number;
  /** How long a locked account answers 429. */
  lockoutSeconds: number;
  redis?: RedisClient;
}

/** Consecutive failures of one client against one account before each further try must wait. */
const FREE_ATTEMPTS = 2;

/**
 * The wait after the n-th consecutive failure of one client against one account: none for the first
 * {@link FREE_ATTEMPTS}, then 2, 4, 8 … seconds, never longer than the lockout.
 */
export function delayAfterFailures(failures: number, lockoutSeconds: number): number {
  if (failures <= FREE_ATTEMPTS) return 0;
  return Math.min(2 ** (failures - FREE_ATTEMPTS), lockoutSeconds);
}

/**
 * Guessing protection per account (OWASP ASVS 5.0 V6.3, SECURITY.md "Throttling"), on top of the per-IP
 * limit. An "account" is a normalised email at login, or a user id for the password checks of the account
 * page. Two counters, both in Redis when configured:
 * - per account and client IP, consecutive failures: from the third, each try must wait longer (2, 4, 8 … s);
 * - per account from any IP: `failLimit` failures within `windowSeconds` lock it for `lockoutSeconds` (429
 *   with Retry-After). Locks always expire, so nobody is locked out for good.
 * A success (the password was right) clears both: a client that knows the password is not slowed down
 * by earlier typos.
 */
export class AccountThrottle {
  private readonly enabled: boolean;
  private readonly failLimit: number;
  private readonly lockoutSeconds: number;
  private readonly perAccount;
  private readonly consecutive;
  private readonly waits;

  constructor({ failLimit, windowSeconds, lockoutSeconds, redis }: AccountThrottleOptions) {
    this.enabled = failLimit > 0;
    this.failLimit = failLimit;
    this.lockoutSeconds = lockoutSeconds;
    this.perAccount = createLimiter({ points: Math.max(1, failLimit), windowSeconds, redis, keyPrefix: 'tm:rl:acct' });
    this.consecutive = createLimiter({ points: 1_000_000, windowSeconds, redis, keyPrefix: 'tm:rl:acct-ip' });
    this.waits = createLimiter({ points: 1, windowSeconds: 1, redis, keyPrefix: 'tm:rl:acct-ip-wait' });
  }

  /** Throws 429 (with Retry-After) when this account, or this account from this client, must wait; 503 when the store fails. */
  async check(ctx: Context, account: string): Promise<void> {
    if (!this.enabled) return;
    const [locked, waiting] = await this.guard(ctx, () =>
      Promise.all([this.perAccount.get(account), this.waits.get(clientKey(account, clientOf(ctx)))]),
    );
    const until = Math.max(
      locked && locked.consumedPoints >= this.failLimit ? locked.msBeforeNext : 0,
      waiting && waiting.consumedPoints > 1 ? waiting.msBeforeNext : 0,
    );
    if (until > 0) throw limiterFailure(ctx, new RateLimiterRes(0, until));
  }

  /** Counts a wrong password. */
  async failed(ctx: Context, account: string): Promise<void> {
    if (!this.enabled) return;
    const key = clientKey(account, clientOf(ctx));
    await this.guard(ctx, async () => {
      const [streak, total] = await Promise.all([this.consecutive.penalty(key), this.perAccount.penalty(account)]);
      const delay = delayAfterFailures(streak.consumedPoints, this.lockoutSeconds);
      await Promise.all([
        delay > 0 ? this.waits.block(key, delay) : undefined,
        total.consumedPoints >= this.failLimit ? this.perAccount.block(account, this.lockoutSeconds) : undefined,
      ]);
    });
  }

  /** The password was right: this client's streak and the account's count start again. */
  async succeeded(ctx: Context, account: string): Promise<void> {
    if (!this.enabled) return;
    const key = clientKey(account, clientOf(ctx));
    await this.guard(ctx, () => Promise.all([this.consecutive.delete(key), this.waits.delete(key), this.perAccount.delete(account)]));
  }

  private async guard<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw limiterFailure(ctx, error);
    }
  }
}

function clientKey(account: string, client: string): string {
  return `${account}|${client}`;
}
