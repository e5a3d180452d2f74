import type { Context } from 'koa';

/**
 * The app's origin as people reach it, for the addresses the gateway hands out (reset links, calendar feeds):
 * PUBLIC_URL when set, else the address this request reached the gateway on, as its socket says (the listening
 * address and port). Never the Host header: a caller chooses it, and would have an address point to a site of theirs.
 */
export function appOrigin(ctx: Context, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl;
  const { localAddress = '127.0.0.1', localPort } = ctx.req.socket;
  const address = localAddress.startsWith('::ffff:') ? localAddress.slice('::ffff:'.length) : localAddress;
  return `http://${address.includes(':') ? `[${address}]` : address}:${localPort ?? 80}`;
}
