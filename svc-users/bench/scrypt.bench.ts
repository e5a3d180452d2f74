/**
 * What one password hash costs on this machine at the production parameters (N=2^17, r=8, p=1).
 * Run: `npx tsx svc-users/bench/scrypt.bench.ts [runs]`. A benchmark script, not a timed test (ARCHITECTURE: Tests).
 */
import { availableParallelism } from 'node:os';
import { ScryptPasswordHasher } from '../src/password.hasher.js';

const runs = Number(process.argv[2] ?? 10);
const hasher = new ScryptPasswordHasher();

async function timeOne(): Promise<number> {
  const start = performance.now();
  await hasher.hash('correct horse battery staple');
  return performance.now() - start;
}

function summary(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const fmt = (ms: number | undefined): string => `${(ms ?? NaN).toFixed(0)} ms`;
  return `${label}: median ${fmt(median)}, min ${fmt(sorted[0])}, max ${fmt(sorted.at(-1))} (${samples.length} runs)\n`;
}

async function main(): Promise<void> {
  process.stdout.write(`node ${process.version}, ${availableParallelism()} CPUs, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}\n`);
  await timeOne(); // warm-up: first call pays for allocating the 128 MiB work area
  const sequential: number[] = [];
  for (let i = 0; i < runs; i += 1) sequential.push(await timeOne());
  process.stdout.write(summary('one hash at a time', sequential));
  // Logins in parallel share libuv's thread pool and the CPUs: this is the throughput ceiling.
  const start = performance.now();
  await Promise.all(Array.from({ length: 8 }, () => timeOne()));
  const seconds = (performance.now() - start) / 1000;
  process.stdout.write(`8 hashes at once: ${seconds.toFixed(2)} s in total, ${(8 / seconds).toFixed(1)} hashes/s\n`);
}

void main();
