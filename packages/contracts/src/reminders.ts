// The reminder calls (docs/PRODUCT.md §10.17): their shapes, and why a reminder was missed. When reminders
// come is reminder-times.ts.
import { z } from 'zod';
import { IsoDateString, MessageResponse, ObjectIdString } from './common.js';
import { LIMITS, REMINDER_MAX_MINUTES } from './limits.js';
import { TodoDue } from './todos.js';

// The calls (README "API", §10.17).

/** Why a reminder could not be delivered: shown on the task and in the page as the person reads it. */
export const MISSED_REASONS = {
  noBrowser: 'No browser allows notifications',
  refused: (detail: string) => `The push service refused: ${detail}`,
  unreachable: (detail: string) => `The push service could not be reached: ${detail}`,
  serverStopped: 'The reminder time passed while the server was stopped',
} as const;

const ZONE_MESSAGE = 'Time zone must be a known IANA time zone name, such as Europe/Paris';

/** An IANA time zone the runtime knows (§10.14), as the reminders read due times in it. */
export const ReminderTimeZone = z
  .string()
  .max(LIMITS.timeZone.max, ZONE_MESSAGE)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return zone.length > 0;
    } catch {
      return false;
    }
  }, ZONE_MESSAGE);

/** URL-safe base64 without padding, as the Push API hands out a subscription's keys. */
const base64url = (what: string, min: number, max: number) =>
  z
    .string()
    .min(min, `${what} is too short`)
    .max(max, `${what} is too long`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be URL-safe base64`);

/** The longest push endpoint kept: the services in use hand out a few hundred characters. */
export const PUSH_ENDPOINT_MAX = 1024;

/** A browser's push subscription (PushSubscription.toJSON()): where to send, and the keys its messages are encrypted to (RFC 8291). */
export const PushSubscriptionJson = z.object({
  endpoint: z
    .string()
    .max(PUSH_ENDPOINT_MAX, `endpoint has at most ${PUSH_ENDPOINT_MAX} characters`)
    .refine((value) => {
      try {
        return new URL(value).protocol === 'https:';
      } catch {
        return false;
      }
    }, 'endpoint must be an https URL'),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes: 87 characters). */
    p256dh: base64url('keys.p256dh', 80, 100),
    /** The 16-byte authentication secret (22 characters). */
    auth: base64url('keys.auth', 16, 32),
  }),
});
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionJson>;

/** PUT /todo/reminders/subscription: this browser's subscription, and the zone it reads the person's clock in. */
export const PushSubscriptionRequest = z.object({ subscription: PushSubscriptionJson, timeZone: ReminderTimeZone });
export type PushSubscriptionRequest = z.infer<typeof PushSubscriptionRequest>;

/** POST /todo/reminders/unsubscribe: this browser's endpoint (reminders off on this device). */
export const PushUnsubscribeRequest = z.object({ endpoint: PushSubscriptionJson.shape.endpoint });
export type PushUnsubscribeRequest = z.infer<typeof PushUnsubscribeRequest>;

/** PUT /todo/reminders/time-zone: the zone the person's due times are read in (the account's, else the browser's). */
export const ReminderTimeZoneRequest = z.object({ timeZone: ReminderTimeZone });
export type ReminderTimeZoneRequest = z.infer<typeof ReminderTimeZoneRequest>;

export const ReminderRefSchema = z.object({
  todoId: ObjectIdString,
  due: TodoDue,
  minutes: z.number().int().min(0).max(REMINDER_MAX_MINUTES),
});

/** POST /todo/reminders/ack: reminders the page has shown (or whose missed notice was dismissed). */
export const ReminderAckRequest = z.object({ reminders: z.array(ReminderRefSchema).min(1, 'reminders must name at least one').max(50, 'reminders names at most 50') });
export type ReminderAckRequest = z.infer<typeof ReminderAckRequest>;

export const ReminderState = z.enum(['pending', 'sent', 'missed']);
export type ReminderState = z.infer<typeof ReminderState>;

/** One reminder as the page sees it. */
export const ReminderItem = z.object({
  todoId: z.string(),
  title: z.string(),
  due: z.string(),
  minutes: z.number().int(),
  fireAt: IsoDateString,
  state: ReminderState,
  /** Why a missed reminder was not delivered ({@link MISSED_REASONS}). */
  reason: z.string().optional(),
});
export type ReminderItem = z.infer<typeof ReminderItem>;

/** GET /todo/reminders */
export const RemindersResponse = z.object({
  /** The VAPID public key (URL-safe base64) a browser subscribes with; null when this server sends no pushes. */
  publicKey: z.string().nullable(),
  /** The zone the server reads the person's due times in; null before any page told it. */
  timeZone: z.string().nullable(),
  /** Reminders still to come in the next day, soonest first: an open page shows each at its time. */
  upcoming: z.array(ReminderItem),
  /** Reminders of the last week that reached no browser and were not yet seen, newest first, with why. */
  missed: z.array(ReminderItem),
});
export type RemindersResponse = z.infer<typeof RemindersResponse>;

/** How far ahead `upcoming` looks, and how far back `missed`. */
export const REMINDER_WINDOWS = { upcomingMs: 24 * 60 * 60_000, missedMs: 7 * 24 * 60 * 60_000, items: 50 } as const;

/** What a push carries (SECURITY.md "Reminders"): the task's id and title and which reminder; nothing else of the account. */
export const ReminderPush = z.object({
  type: z.literal('reminder'),
  todoId: z.string(),
  title: z.string(),
  due: z.string(),
  minutes: z.number().int(),
  /** {@link reminderKey}: notifications of one reminder collapse into one. */
  tag: z.string(),
});
export type ReminderPush = z.infer<typeof ReminderPush>;

// Between the gateway and svc-todos (INTERNAL_API).

/** A browser's subscription as the gateway hands it on: tied to the session it was made in (SECURITY.md "Reminders"). */
export const InternalPushSubscriptionRequest = PushSubscriptionRequest.extend({
  /** An HMAC of the session id (never the id): the gateway names it again when the session ends. */
  session: z.string().min(16).max(128),
  /** When the session would end by its lifetimes at the latest, as of now; pushes stop there. */
  expiresAt: IsoDateString,
});
export type InternalPushSubscriptionRequest = z.infer<typeof InternalPushSubscriptionRequest>;

/** Sessions of the vouched user that ended: their subscriptions go (`all`: every one of the user, but `keep`'s). */
export const EndedSessionsRequest = z.object({
  sessions: z.array(z.string().min(16).max(128)).max(100).optional(),
  all: z.boolean().optional(),
  keep: z.string().min(16).max(128).optional(),
});
export type EndedSessionsRequest = z.infer<typeof EndedSessionsRequest>;

export const RemovedCountResponse = MessageResponse.extend({ removed: z.number().int().min(0) });
export type RemovedCountResponse = z.infer<typeof RemovedCountResponse>;
