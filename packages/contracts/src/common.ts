import { z } from 'zod';

/** A 24-hex MongoDB ObjectId string; every store uses this id format. */
export const ObjectIdString = z
  .string()
  .regex(/^[0-9a-f]{24}$/i, 'The id must be 24 hexadecimal characters (0-9, a-f)')
  .transform((id) => id.toLowerCase());
export type ObjectIdString = z.infer<typeof ObjectIdString>;

export const IsoDateString = z.iso.datetime();

/** Body of the responses that only carry a message shown to the user (docs/PRODUCT.md §3). */
export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;
