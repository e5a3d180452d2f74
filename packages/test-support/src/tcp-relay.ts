import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';

export interface TcpRelay {
  /** The relay's own address: point a client here instead of at the target. */
  readonly host: string;
  readonly port: number;
  /** Connections currently open through the relay. */
  readonly openConnections: number;
  /**
   * Holds every byte, both ways, for `ms` before passing it on (0: at once), as a slow or congested
   * dependency would. Order is kept: bytes that arrive later never overtake bytes still held.
   */
  delay(ms: number): void;
  /**
   * The target becomes unreachable: every open connection is cut (both sides destroyed) and the relay stops
   * listening, so new connections are refused (ECONNREFUSED).
   */
  cut(): Promise<void>;
  /** Listens again on the same port and relays as before: the target is reachable again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** One direction of a relayed connection, holding data for the current delay. */
function forward(from: Socket, to: Socket, delayMs: () => number, timers: Set<NodeJS.Timeout>): void {
  const held: { chunk: Buffer; at: number }[] = [];
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const pump = (): void => {
    if (timer) timers.delete(timer);
    timer = undefined;
    let next = held[0];
    while (next && next.at <= Date.now()) {
      held.shift();
      if (!to.destroyed) to.write(next.chunk);
      next = held[0];
    }
    if (next) {
      timer = setTimeout(pump, next.at - Date.now());
      timers.add(timer);
    } else if (ended && !to.destroyed) {
      to.end();
    }
  };
  from.on('data', (chunk: Buffer) => {
    const ms = delayMs();
    if (ms <= 0 && held.length === 0) {
      to.write(chunk);
      return;
    }
    held.push({ chunk, at: Date.now() + ms });
    if (!timer) pump();
  });
  from.on('end', () => {
    ended = true;
    if (!timer) pump();
  });
  from.on('close', () => {
    if (timer) {
      clearTimeout(timer);
      timers.delete(timer);
    }
    held.length = 0;
  });
}

/**
 * A TCP relay on 127.0.0.1 in front of `target` for fault tests: it can slow every byte down or cut the
 * target off without touching the real process (a Redis shared with other tests, a service under test).
 */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const host = '127.0.0.1';
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let delayMs = 0;
  let listening = false;

  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        // A connection is relayed as a whole: when one side goes, so does the other.
        client.destroy();
        upstream.destroy();
      });
    }
    forward(client, upstream, () => delayMs, timers);
    forward(upstream, client, () => delayMs, timers);
  });

  const listen = async (port: number): Promise<void> => {
    server.listen(port, host);
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => {
        throw error instanceof Error ? error : new Error(String(error));
      }),
    ]);
    listening = true;
  };
  const stopListening = async (): Promise<void> => {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    await closed;
  };

  await listen(0);
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('relay has no address');
  const port = address.port;

  return {
    host,
    port,
    get openConnections() {
      return sockets.size / 2;
    },
    delay: (ms) => {
      delayMs = ms;
    },
    cut: stopListening,
    restore: async () => {
      if (!listening) await listen(port);
    },
    close: async () => {
      delayMs = 0;
      await stopListening();
    },
  };
}
