// Child processes of the bench: the baseline servers, and what the kernel says each process used.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ, 100 on every mainstream kernel). */
const CLOCK_TICKS = 100;

/**
 * @typedef {object} Baseline
 * @property {string} url
 * @property {number} pid
 * @property {() => Promise<void>} stop
 */

/**
 * Starts a baseline server (`koa` or `node`) in its own process. `answers` maps a name (sent by the client
 * in `x-bench-answer`) to the status and exact body to answer with.
 * @param {'koa' | 'node'} kind @param {Record<string, { status: number, body: string }>} answers
 * @param {string} dir where the answers file goes
 * @returns {Promise<Baseline>}
 */
export async function startBaseline(kind, answers, dir) {
  const file = path.join(dir, `baseline-${kind}.json`);
  writeFileSync(file, JSON.stringify(answers));
  const child = fork(path.join(HERE, 'baseline-server.mjs'), [kind, file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [message] = await once(child, 'message');
  return {
    url: `http://127.0.0.1:${message.port}`,
    pid: /** @type {number} */ (child.pid),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Resident memory of a process in MiB (VmRSS of /proc/<pid>/status); undefined off Linux. @param {number} pid */
export function rssMiB(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in ms; undefined off Linux. @param {number} pid */
export function cpuMs(pid) {
  try {
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS; // utime, stime (fields 14, 15)
  } catch {
    return undefined;
  }
}
