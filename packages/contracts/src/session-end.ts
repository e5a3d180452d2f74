import { z } from 'zod';
import { SESSION_END_REASONS } from './session-end-reasons.js';

export { isSessionEndReason, SESSION_END_REASONS, SESSION_END_STORAGE_KEY } from './session-end-reasons.js';

/** The reasons as a schema, for the error body's `reason` (session-end-reasons.ts says what each means). */
export const SessionEndReason = z.enum(SESSION_END_REASONS);
export type SessionEndReason = z.infer<typeof SessionEndReason>;
