import type { z } from 'zod';
import { ValidationError } from './errors.js';

/** Parses `data` with `schema` or throws a 400 {@link ValidationError} listing every issue. */
export function parseOr400<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw ValidationError.fromZod(result.error);
  return result.data;
}
