import { ErrorCode } from '@tm/contracts';
import { withSpan } from '@tm/service-kit';
import type { Context } from 'koa';
import { Counter, type Registry } from 'prom-client';
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
  /** Where the wrong-password, lock and refusal counters are registered (the process's /metrics). */
  registry?: Registry;
}

/** True for the service's "wrong password" answers, which count against the account. */
export function wrongPassword(status: number, body: unknown): boolean {
  const code = (body as { code?: unknown } | null)?.code;
  return (status === 401 && code === ErrorCode.invalidCredentials) || (status === 403 && code === ErrorCode.wrongPassword);
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
 * page. Counters, all in Redis when configured:
 * - per account and client address, consecutive failures: from the third, each try must wait longer (2, 4,
 *   8 … s);
 * - per account, from clients it does not know: `failLimit` failures within `windowSeconds` lock it for
 *   `lockoutSeconds` (429 with Retry-After) against every unknown client. Locks always expire;
 * - per known device (a browser that signed in to the account before, device-cookie.ts): its own
 *   failures, `failLimit` within the window locking that device only. A known device is not held by the
 *   account's lock, so guessing at an owner's email no longer keeps the owner out.
 * A success (the password was right) clears that client's streak, and the count of whoever succeeded: the
 * account's for an unknown client, the device's for a known one (a lock others caused stays for them).
 */
export class AccountThrottle {
  private readonly enabled: boolean;
  private readonly failLimit: number;
  private readonly lockoutSeconds: number;
  private readonly perAccount;
  private readonly perDevice;
  private readonly consecutive;
  private readonly waits;
  private readonly counters;

  constructor({ failLimit, windowSeconds, lockoutSeconds, redis, registry }: AccountThrottleOptions) {
    this.enabled = failLimit > 0;
    this.failLimit = failLimit;
    this.lockoutSeconds = lockoutSeconds;
    this.perAccount = createLimiter({ points: Math.max(1, failLimit), windowSeconds, redis, keyPrefix: 'tm:rl:acct' });
    this.perDevice = createLimiter({ points: Math.max(1, failLimit), windowSeconds, redis, keyPrefix: 'tm:rl:device' });
    this.consecutive = createLimiter({ points: 1_000_000, windowSeconds, redis, keyPrefix: 'tm:rl:acct-ip' });
    this.waits = createLimiter({ points: 1, windowSeconds: 1, redis, keyPrefix: 'tm:rl:acct-ip-wait' });
    // For the sign-in alerts (deploy/prometheus/alerts.yml, docs/OPERATIONS.md): a spike of wrong passwords
    // or of locks is guessing at accounts. Wrong passwords are counted even with the throttle off.
    const registers = registry ? [registry] : [];
    this.counters = {
      wrong: new Counter({
        name: 'gateway_wrong_passwords_total',
        help: 'Wrong passwords given: failed sign-ins and failed password checks of the account page',
        registers,
      }),
      locks: new Counter({
        name: 'gateway_account_locks_total',
        help: 'Locks applied after too many wrong passwords (failLimit): of an account (unknown clients) or of one known device',
        labelNames: ['scope'] as const,
        registers,
      }),
      refused: new Counter({
        name: 'gateway_account_throttled_total',
        help: 'Password checks refused with 429 before reaching svc-users: the account or device is locked, or the client must wait',
        registers,
      }),
    };
  }

  /**
   * Throws 429 (with Retry-After) when this account (for an unknown client), this known device, or this
   * account from this client must wait; 503 when the store fails.
   */
  async check(ctx: Context, account: string, device?: string): Promise<void> {
    if (!this.enabled) return;
    const [locked, waiting] = await this.guard(ctx, 'check', () =>
      Promise.all([device ? this.perDevice.get(deviceKey(account, device)) : this.perAccount.get(account), this.waits.get(clientKey(account, clientOf(ctx)))]),
    );
    const until = Math.max(
      locked && locked.consumedPoints >= this.failLimit ? locked.msBeforeNext : 0,
      waiting && waiting.consumedPoints > 1 ? waiting.msBeforeNext : 0,
    );
    if (until > 0) {
      this.counters.refused.inc();
      throw limiterFailure(ctx, new RateLimiterRes(0, until));
    }
  }

  /** Counts a wrong password: against the known device that sent it, else against the account. */
  async failed(ctx: Context, account: string, device?: string): Promise<void> {
    this.counters.wrong.inc();
    if (!this.enabled) return;
    const key = clientKey(account, clientOf(ctx));
    const [limiter, counted] = device ? [this.perDevice, deviceKey(account, device)] : [this.perAccount, account];
    await this.guard(ctx, 'failed', async () => {
      const [streak, total] = await Promise.all([this.consecutive.penalty(key), limiter.penalty(counted)]);
      const delay = delayAfterFailures(streak.consumedPoints, this.lockoutSeconds);
      const lock = total.consumedPoints >= this.failLimit;
      await Promise.all([delay > 0 ? this.waits.block(key, delay) : undefined, lock ? limiter.block(counted, this.lockoutSeconds) : undefined]);
      if (lock) this.counters.locks.inc({ scope: device ? 'device' : 'account' });
    });
  }

  /** The password was right: this client's streak starts again, and the count of whoever succeeded. */
  async succeeded(ctx: Context, account: string, device?: string): Promise<void> {
    if (!this.enabled) return;
    const key = clientKey(account, clientOf(ctx));
    const own = device ? this.perDevice.delete(deviceKey(account, device)) : this.perAccount.delete(account);
    await this.guard(ctx, 'succeeded', () => Promise.all([this.consecutive.delete(key), this.waits.delete(key), own]));
  }

  /** Runs the counters' store calls of one step: a span `account-throttle.<step>` (docs/OPERATIONS.md "Traces"); a store failure is a 503. */
  private guard<T>(ctx: Context, step: 'check' | 'failed' | 'succeeded', work: () => Promise<T>): Promise<T> {
    return withSpan(`account-throttle.${step}`, async () => {
      try {
        return await work();
      } catch (error) {
        throw limiterFailure(ctx, error);
      }
    });
  }
}

function clientKey(account: string, client: string): string {
  return `${account}|${client}`;
}

function deviceKey(account: string, device: string): string {
  return `${account}|${device}`;
}
