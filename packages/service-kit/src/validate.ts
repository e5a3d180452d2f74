import type { z } from 'zod';
import { ValidationError } from './errors.js';
import { plainIssueMessage } from './issue-messages.js';

/**
 * Parses `data` with `schema` or throws a 400 {@link ValidationError} listing every issue. zod's generic
 * issues are worded for a person, naming the field; the schema's own messages are kept as they are.
 */
export function parseOr400<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data, { error: plainIssueMessage });
  if (!result.success) throw ValidationError.fromZod(result.error);
  return result.data;
}
