// Loaded into each process that the supervisor (scripts/serve.mjs) starts, with `node --import`. Those
// processes run in sessions of their own, out of reach of the terminal's Ctrl-C, so that the supervisor alone
// decides the order of the stop. If the supervisor dies without stopping them (kill -9, a crash), nothing else
// would stop them: they would keep their ports, and the next `npm start` would find them taken.
// So their stdin is a pipe from the supervisor, which never writes to it and never closes it. End of file
// means the supervisor has died, and the process stops itself the way SIGTERM stops it, gracefully.
import fs from 'node:fs';
import { Socket } from 'node:net';

/**
 * With the supervisor gone, stdout and stderr lead nowhere (EPIPE). pino flushes its log synchronously at
 * exit, and sonic-boom's flushSync (4.2) retries every failed write, EPIPE too, every 100 ms, for ever: the
 * process would hang at its very last step. Lines that cannot be delivered are dropped instead.
 */
function dropUndeliverableOutput() {
  const writeSync = fs.writeSync;
  fs.writeSync = function writeSyncOrDrop(fd, data, ...rest) {
    try {
      return writeSync.call(this, fd, data, ...rest);
    } catch (error) {
      if ((fd !== 1 && fd !== 2) || error?.code !== 'EPIPE') throw error;
      // Reported as written: (fd, string, ...) or (fd, buffer, offset?, length?, ...).
      return typeof data === 'string' ? Buffer.byteLength(data) : (rest[1] ?? data.byteLength - (rest[0] ?? 0));
    }
  };
}

function supervisorGone() {
  dropUndeliverableOutput();
  process.kill(process.pid, 'SIGTERM');
}

// Only armed on a pipe (a socket to Node): started by hand with stdin on a terminal, a file or /dev/null, the
// guard must not stop the process. (Not fs.fstatSync(0): on Node 20, a stat of a socket or FIFO just before
// the entry point loads makes fs.realpathSync stop early, and the CommonJS loader then fails to find the
// dependencies of pnpm's symlinked packages.)
if (process.stdin instanceof Socket && !process.stdin.isTTY) {
  process.stdin.once('end', supervisorGone);
  process.stdin.once('error', supervisorGone);
  process.stdin.resume();
  // Never what keeps a process alive: a process that is done exits as it would without the guard.
  process.stdin.unref();
}
