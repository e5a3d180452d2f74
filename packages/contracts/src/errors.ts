import { z } from 'zod';
import { SessionEndReason } from './session-end.js';

export { ErrorCode } from './error-codes.js';

export const ValidationIssue = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** Every error response of the API has this body. */
export const ErrorBody = z.object({
  message: z.string(),
  code: z.string().optional(),
  issues: z.array(ValidationIssue).optional(),
  /**
   * Only in a 401 `AUTH.UNAUTHENTICATED` answer to a request whose signed session cookie names a session that
   * has ended: why it ended. Absent without a session cookie, or for an unknown or forged one.
   */
  reason: SessionEndReason.optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
