import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Middleware } from 'koa';
import { ErrorCode } from '@tm/contracts';
import { UnauthorizedError } from './errors.js';

declare module 'koa' {
  interface DefaultState {
    /** Id of the signed-in user the gateway vouched for; `undefined` for an anonymous (signed) call. */
    userId?: string;
  }
}

/** Headers the gateway sets (after stripping any a client sent) to vouch for a request to a service. */
export const IDENTITY_HEADERS = {
  userId: 'x-tm-user-id',
  timestamp: 'x-tm-auth-ts',
  signature: 'x-tm-auth-sig',
} as const;

/** How old a signature may be; the gateway and services share a clock source (NTP) in any deployment. */
const DEFAULT_MAX_SKEW_MS = 30_000;

interface SignedRequest {
  method: string;
  /** Path and query exactly as the service receives them. */
  url: string;
  userId: string;
  requestId: string;
}

/**
 * One key object per secret for the process's life (a process knows one or two secrets): an HMAC keyed by a
 * string re-imports the key on every call, on every request of both the gateway and the services.
 */
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

function signatureOf(secret: string, request: SignedRequest, timestamp: string): Buffer {
  const payload = `${timestamp}\n${request.method.toUpperCase()}\n${request.url}\n${request.userId}\n${request.requestId}`;
  return createHmac('sha256', keyOf(secret)).update(payload).digest();
}

/** Headers that vouch for `request`; bound to its method, url, user and request id, valid for a short time. */
export function signIdentity(secret: string, request: SignedRequest, now = Date.now()): Record<string, string> {
  const timestamp = String(now);
  return {
    [IDENTITY_HEADERS.userId]: request.userId,
    [IDENTITY_HEADERS.timestamp]: timestamp,
    [IDENTITY_HEADERS.signature]: signatureOf(secret, request, timestamp).toString('base64url'),
  };
}

export interface VerifyOptions {
  secret: string;
  maxSkewMs?: number;
  /** Paths served without a signature (health and metrics). */
  publicPaths?: readonly string[];
}

/**
 * Rejects with 401 any request the gateway did not sign: missing, forged, or stale signature. On success the
 * vouched user id (if any) is in `ctx.state.userId`.
 */
export function requireSignedIdentity({ secret, maxSkewMs = DEFAULT_MAX_SKEW_MS, publicPaths = [] }: VerifyOptions): Middleware {
  return async (ctx, next) => {
    if (publicPaths.includes(ctx.path)) {
      await next();
      return;
    }
    const userId = ctx.get(IDENTITY_HEADERS.userId);
    const timestamp = ctx.get(IDENTITY_HEADERS.timestamp);
    const signature = Buffer.from(ctx.get(IDENTITY_HEADERS.signature), 'base64url');
    const age = Date.now() - Number(timestamp);
    if (!/^\d{13}$/.test(timestamp) || !(Math.abs(age) <= maxSkewMs)) {
      throw new UnauthorizedError('Request was not signed by the gateway', ErrorCode.badSignature);
    }
    const expected = signatureOf(secret, { method: ctx.method, url: ctx.url, userId, requestId: ctx.get('x-request-id') }, timestamp);
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
      throw new UnauthorizedError('Request was not signed by the gateway', ErrorCode.badSignature);
    }
    if (userId) ctx.state.userId = userId;
    await next();
  };
}

/** For routes that act for a user: 401 unless the gateway vouched for one. */
export function requireUser(): Middleware {
  return async (ctx, next) => {
    if (!ctx.state.userId) throw new UnauthorizedError();
    await next();
  };
}
