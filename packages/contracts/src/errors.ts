import { z } from 'zod';

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
});
export type ErrorBody = z.infer<typeof ErrorBody>;
