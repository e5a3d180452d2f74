import { createHash } from 'node:crypto';
import type { Context } from 'koa';

/** A strong ETag of a text answer: its SHA-256, cut to 27 base64url characters. */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

export interface RevalidatedText {
  text: string;
  /** {@link etagOf} the text (computed once by a caller whose text does not change). */
  etag: string;
  type: string;
  cacheControl: string;
}

/**
 * A text answer a client may keep and revalidate by its ETag (the OpenAPI document, a calendar feed): 304 without
 * a body when the client's `If-None-Match` names it, else 200 with it.
 */
export function answerRevalidated(ctx: Context, { text, etag, type, cacheControl }: RevalidatedText): void {
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', etag);
  ctx.type = type;
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = text;
}
