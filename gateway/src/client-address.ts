// Who a client is, for the limits that count clients (SECURITY.md "Throttling"): per-IP rate
// limits, the account throttle, connection and stream caps.
import type { Context } from 'koa';
import ipaddr from 'ipaddr.js';

/**
 * The key a client is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 address as the IPv4
 * address), an IPv6 address as its /64. One IPv6 host usually holds a whole /64 (RFC 4291's interface
 * identifiers, SLAAC privacy addresses): counting single addresses would let it rotate through 2^64 of them.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}

/**
 * The request's client, as a key ({@link addressKey}). `ctx.ip` is the peer's address, or with `TRUST_PROXY`
 * the address the nearest trusted proxy saw: Koa reads `X-Forwarded-For` from the right, at most
 * `app.maxIpsCount` entries (the proxies TRUST_PROXY counts), so entries a client wrote itself on the left are never
 * taken for its address.
 */
export function clientOf(ctx: Context): string {
  return addressKey(ctx.ip);
}
