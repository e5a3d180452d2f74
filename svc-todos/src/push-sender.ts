import type { Agent } from 'node:https';
import { localSecretFile } from '@tm/service-kit';
import webpush from 'web-push';
import { z } from 'zod';
import { pushResultOf, type PushResult } from './reminders.domain.js';
import type { PushSubscriptionRecord } from './reminders.repository.js';

// Web Push delivery of reminders (docs/PRODUCT.md §10.17, SECURITY.md "Reminders"): the `web-push` library
// encrypts each message to the browser's keys (RFC 8291, aes128gcm) and signs a VAPID JWT (RFC 8292) for the
// push service. The keys are kept like the other secrets: from the environment, or generated once into
// DATA_DIR outside production.

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** The file the local VAPID keys are generated into (owner-only), beside secrets.json. */
export const VAPID_FILE = 'vapid.json';

const StoredVapid = z.object({ publicKey: z.string().regex(/^[A-Za-z0-9_-]{87}$/), privateKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/**
 * The configured VAPID keys; else, outside production, the local ones (generated once); in production without
 * them, null: no push is sent (a generated key in production would change with every new pod).
 */
export function vapidKeys(config: { DATA_DIR: string; NODE_ENV?: string; VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT: string }): VapidKeys | null {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: subject } = config;
  if (publicKey && privateKey) return { publicKey, privateKey, subject };
  if (config.NODE_ENV === 'production') return null;
  return { ...localSecretFile(config.DATA_DIR, VAPID_FILE, StoredVapid, () => webpush.generateVAPIDKeys()), subject };
}

/** Sends one message to one browser and says what its push service answered. */
export interface PushSender {
  readonly publicKey: string | null;
  send(subscription: PushSubscriptionRecord, payload: string): Promise<PushResult>;
}

/** No VAPID keys: no browser can subscribe, so nothing is ever sent. */
export const NO_PUSH: PushSender = {
  publicKey: null,
  send: async () => ({ kind: 'failed', refused: false, detail: 'this server has no VAPID keys' }),
};

export interface WebPushSenderOptions {
  /** A push service answering slower than this counts as unreachable for this attempt. */
  timeoutMs?: number;
  /** The TLS agent for the push services (tests: one that trusts the local receiver's certificate). */
  agent?: Agent;
  /** How long a push service keeps a message for a browser that is offline (seconds). */
  ttlSeconds?: number;
}

export class WebPushSender implements PushSender {
  readonly publicKey: string;

  constructor(
    private readonly keys: VapidKeys,
    private readonly options: WebPushSenderOptions = {},
  ) {
    this.publicKey = keys.publicKey;
  }

  async send(subscription: PushSubscriptionRecord, payload: string): Promise<PushResult> {
    const { timeoutMs = 10_000, agent, ttlSeconds = 4 * 60 * 60 } = this.options;
    try {
      const answer = await webpush.sendNotification({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, payload, {
        vapidDetails: this.keys,
        TTL: ttlSeconds,
        urgency: 'high',
        timeout: timeoutMs,
        ...(agent ? { agent } : {}),
      });
      return pushResultOf(answer.statusCode, answer.body);
    } catch (error) {
      if (error instanceof webpush.WebPushError) return pushResultOf(error.statusCode, error.body);
      return { kind: 'failed', refused: false, detail: error instanceof Error ? error.message : String(error) };
    }
  }
}
