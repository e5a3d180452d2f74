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
   * Random faults on every connection from now on (`null`: none, the default): chunks cut off, held back or
   * passed, each decided by `plan.random` as it arrives. {@link delay} still applies as the least hold.
   */
  faults(plan: RelayFaults | null): void;
  /**
   * The target becomes unreachable: every open connection is cut (both sides destroyed) and the relay stops
   * listening, so new connections are refused (ECONNREFUSED).
   */
  cut(): Promise<void>;
  /** Listens again on the same port and relays as before: the target is reachable again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Faults a relay injects at random (the convergence test of docs/PRODUCT.md §10.4), decided per chunk of bytes
 * as it arrives; with a seeded `random` a run's faults follow its seed as far as the timing of chunks allows.
 */
export interface RelayFaults {
  /** Source of every decision, in [0, 1). */
  random: () => number;
  /**
   * Chance per chunk from the client that the connection is cut there: half of the chunk gets through, the rest
   * and everything after is lost (a request lost, whole or in part; an earlier one on the connection stands).
   */
  cutRequest?: number;
  /**
   * Chance per chunk from the target that the connection is cut there, after half of the chunk got through: the
   * request was applied but its answer is lost, cut off mid-way.
   */
  cutAnswer?: number;
  /** How long to hold each chunk (ms), drawn per chunk, either way; order is kept. Absent: not held. */
  hold?: () => number;
}

/**
 * One direction of a relayed connection, holding data for the current delay; `cutHere` (asked per chunk) cuts
 * the connection after passing half of the chunk.
 */
function forward(from: Socket, to: Socket, delayMs: () => number, timers: Set<NodeJS.Timeout>, cutHere: () => boolean = () => false): void {
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
    if (cutHere()) {
      if (held.length === 0 && !to.destroyed) to.write(chunk.subarray(0, chunk.length >> 1));
      // The 'close' handler takes the other side down too.
      from.destroy();
      return;
    }
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
  let faults: RelayFaults | null = null;
  let listening = false;
  const holdMs = (): number => Math.max(delayMs, faults?.hold?.() ?? 0);
  const cuts = (chanceOf: (plan: RelayFaults) => number | undefined) => (): boolean => faults !== null && faults.random() < (chanceOf(faults) ?? 0);

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
    forward(client, upstream, holdMs, timers, cuts((plan) => plan.cutRequest));
    forward(upstream, client, holdMs, timers, cuts((plan) => plan.cutAnswer));
  });

  const listen = async (port: number): Promise<void> => {
    server.listen(port, host);
    // The listener that loses the race is removed: a relay cut and restored many times keeps no stale ones.
    const settled = new AbortController();
    try {
      await Promise.race([
        once(server, 'listening', { signal: settled.signal }),
        once(server, 'error', { signal: settled.signal }).then(([error]) => {
          throw error instanceof Error ? error : new Error(String(error));
        }),
      ]);
    } finally {
      settled.abort();
    }
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
    faults: (plan) => {
      faults = plan;
    },
    cut: stopListening,
    restore: async () => {
      if (!listening) await listen(port);
    },
    close: async () => {
      delayMs = 0;
      faults = null;
      await stopListening();
    },
  };
}
