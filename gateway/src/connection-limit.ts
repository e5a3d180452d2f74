// A cap on the connections one client address holds at once (SECURITY.md "Limits and
// timeouts"): a client that opens thousands of connections and sends its requests slowly, or never, would
// otherwise take every file descriptor of the gateway and lock every other user out. Browsers open at most
// six connections to a host (HTTP/1.1), so a generous cap leaves people behind one address (an office, a
// carrier's NAT) room, while one address can no longer hold the server. Behind a trusted proxy every
// connection comes from the proxy, so the cap is the proxy's job (nginx `limit_conn`, deploy/nginx/lb.conf).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Counter, Gauge, type Registry } from 'prom-client';
import { addressKey } from './client-address.js';

export interface ConnectionLimitOptions {
  /** Connections one address (IPv4, or IPv6 /64) may hold at once. */
  maxPerAddress: number;
  registry?: Registry;
}

/** Watches `server`'s connections; one over the address's cap is closed at once, before any byte is read. */
export function limitConnectionsPerAddress(server: Server, { maxPerAddress, registry }: ConnectionLimitOptions): void {
  const open = new Map<string, number>();
  const refused = new Counter({
    name: 'gateway_connections_refused_total',
    help: 'Connections closed at once because their address already held the most allowed',
    registers: registry ? [registry] : [],
  });
  new Gauge({
    name: 'gateway_connection_addresses',
    help: 'Client addresses holding at least one connection',
    registers: registry ? [registry] : [],
    collect() {
      this.set(open.size);
    },
  });
  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress ?? '');
    const count = (open.get(key) ?? 0) + 1;
    if (count > maxPerAddress) {
      refused.inc();
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
