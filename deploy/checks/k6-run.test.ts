/**
 * The k6 scripts of deploy/k6 run by k6 itself, against the built stack: the gateway and both
 * services as separate processes over HTTP (@tm/test-support startStack, login and signup rate limits off as
 * deploy/k6/README.md asks of a load target). `smoke.js` as shipped, then a short `load.js`: 30 s of all three
 * scenarios (browse, login, held live streams). k6's own thresholds decide: k6 exits 99 when one fails, and
 * the test then prints k6's summary and fails on the exit status.
 *
 * k6 is not an npm package: it is found on PATH (README "Load testing and scaling" says how to install it; CI's
 * .ci/run puts the build machines' copy there). Without it this suite says so and is skipped.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type RunningStack } from '@tm/test-support';

const REPO = path.resolve(__dirname, '../..');
const K6_DIR = path.join(REPO, 'deploy/k6');

/** `k6 version` when a k6 is on PATH (undefined when none is). */
function k6Version(): string | undefined {
  const probe = spawnSync('k6', ['version'], { encoding: 'utf8', env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } });
  return probe.status === 0 ? probe.stdout.trim() : undefined;
}

const version = k6Version();
const built = ['gateway', 'svc-users', 'svc-todos'].every((app) => existsSync(path.join(REPO, app, 'dist/server.js')));

/**
 * The short load run of `npm test`: every scenario of load.js at its default rates (5 task-list visits and 10
 * sign-ins a second), 10 pages holding a live stream instead of 20 (every stream VU signs up at the start;
 * on a 2-core machine that also runs the stack and k6, that burst queues the logins behind it, and in a 30 s
 * run it weighs on the signup and login p95 twice as much as in a 60 s one), each held 10 s so that the last
 * ones end with the run. The thresholds are the script's own.
 */
const SHORT_LOAD: Record<string, string> = { DURATION: '30s', STREAM_SECONDS: '10', STREAM_VUS: '10' };

interface K6Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** k6's output, its end-of-test summary included. */
  output: string;
  points: Points;
}

/**
 * What the run measured, read from k6's JSON output (`--out json=…`, one line per sample): a built-in output
 * of every k6 version, where `--summary-export` is a legacy option that handleSummary() replaces.
 */
interface Points {
  /** Requests per scenario tag. */
  requests: Map<string, number>;
  /** Request durations (ms) per endpoint (`name` tag). */
  durations: Map<string, number[]>;
  /** `checks` samples, and how many passed. */
  checks: { total: number; passed: number };
  /** `stream_held` samples, and how many were held to the end. */
  streams: { total: number; held: number };
}

interface Point {
  type?: string;
  metric?: string;
  data?: { value?: number; tags?: Record<string, string> };
}

function readPoints(file: string): Points {
  const points: Points = { requests: new Map(), durations: new Map(), checks: { total: 0, passed: 0 }, streams: { total: 0, held: 0 } };
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return points; // No output (k6 stopped before the test): the exit status and the output say why.
  }
  for (const line of text.split('\n')) {
    if (!line.includes('"type":"Point"')) continue;
    const { metric, data } = JSON.parse(line) as Point;
    const value = data?.value ?? 0;
    const tags = data?.tags ?? {};
    if (metric === 'http_reqs') {
      const scenario = tags.scenario ?? '';
      points.requests.set(scenario, (points.requests.get(scenario) ?? 0) + 1);
    } else if (metric === 'http_req_duration' && tags.name) {
      const list = points.durations.get(tags.name) ?? [];
      list.push(value);
      points.durations.set(tags.name, list);
    } else if (metric === 'checks') {
      points.checks.total += 1;
      if (value === 1) points.checks.passed += 1;
    } else if (metric === 'stream_held') {
      points.streams.total += 1;
      if (value === 1) points.streams.held += 1;
    }
  }
  return points;
}

/**
 * `k6 run` of one script against `baseUrl`, asynchronously: the stack's processes write a log line per
 * request into pipes this process reads, which a blocking spawnSync would leave full (and the stack stalled).
 */
async function runK6(script: string, baseUrl: string, env: Record<string, string> = {}): Promise<K6Run> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tm-k6-'));
  const pointsFile = path.join(dir, 'points.json');
  const args = ['run', '--address', '127.0.0.1:0', '--quiet', '--no-color', '--out', `json=${pointsFile}`, '-e', `BASE_URL=${baseUrl}`];
  for (const [name, value] of Object.entries(env)) args.push('-e', `${name}=${value}`);
  args.push(path.join(K6_DIR, script));
  // No usage report (k6 would otherwise call home at the end of the run).
  const child = spawn('k6', args, { cwd: REPO, env: { ...process.env, K6_NO_USAGE_REPORT: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (c, s) => resolve([c, s])));
  const points = readPoints(pointsFile);
  rmSync(dir, { recursive: true, force: true });
  return { code, signal, output, points };
}

/** Fails unless k6 exited 0; on failure the whole of what k6 printed (its summary: which threshold, which check) comes first. */
function expectPassed(script: string, run: K6Run): void {
  if (run.code !== 0) {
    const why = run.code === 99 ? 'a threshold failed' : run.signal ? `killed by ${run.signal}` : 'see its output';
    process.stderr.write(`\n---- k6 run ${script}: exit ${run.code} (${why}) ----\n${run.output}\n---- end of k6 output ----\n`);
  }
  expect({ script, exit: run.code }).toEqual({ script, exit: 0 });
}

/** The p95 of an endpoint's request durations in whole milliseconds ('-' when it had none), as k6 computes it. */
function p95(points: Points, name: string): string {
  const sorted = [...(points.durations.get(name) ?? [])].sort((a, b) => a - b);
  if (sorted.length === 0) return '-';
  // k6's percentile: linear interpolation between the closest ranks.
  const rank = (sorted.length - 1) * 0.95;
  const low = Math.floor(rank);
  const value = sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (rank - low);
  return `${Math.round(value)} ms`;
}

if (!version || !built) {
  const reason = !version
    ? 'k6 is not on PATH (it is not an npm package: README "Load testing and scaling" says how to install it)'
    : 'the built processes are missing (pnpm build)';
  console.warn(`k6 runs of deploy/k6 (smoke.js, a 30 s load.js) skipped: ${reason}`);
  // Skipped on purpose and said so: without k6 there is nothing to run the scripts (deploy/checks/k6.test.ts
  // still checks them statically).
  describe.skip('k6 runs of deploy/k6 against the built stack', () => { // reason: no k6 on PATH or no build (printed above)
    it('needs k6 on PATH and the built processes', () => undefined);
  });
} else {
  describe(`k6 runs of deploy/k6 against the built stack (${version})`, () => {
    let stack: RunningStack;

    beforeAll(async () => {
      // keepLogs off: the processes' lines are read and dropped, not parsed (a log line per request).
      stack = await startStack({ keepLogs: false });
    }, 60_000);

    afterAll(async () => {
      await stack?.stop();
    }, 30_000);

    it('smoke.js passes every check and threshold', async () => {
      const run = await runK6('smoke.js', stack.url);
      expectPassed('smoke.js', run);
      expect(run.points.checks.total).toBeGreaterThan(50);
    }, 120_000);

    it('a 30 s load.js (browse, login and held live streams side by side) stays within its thresholds', async () => {
      const run = await runK6('load.js', stack.url, SHORT_LOAD);
      const { requests, checks, streams } = run.points;
      // The figures of every run in the test output, to compare with docs/BENCHMARKS.md.
      console.info(
        `k6 load.js (${SHORT_LOAD.DURATION}): checks ${checks.passed}/${checks.total}; p95 ` +
          ['fetch-todo', 'add-todo', 'update-todo', 'delete-todo', 'login', 'signup'].map((name) => `${name} ${p95(run.points, name)}`).join(', ') +
          `; streams held ${streams.held}/${streams.total}; requests ${[...requests].map(([scenario, count]) => `${scenario || 'setup'} ${count}`).join(', ')}`,
      );
      expectPassed('load.js', run);
      // Each scenario did its work: requests in browse and login, streams held to their planned end.
      expect(requests.get('browse') ?? 0).toBeGreaterThan(100);
      expect(requests.get('login') ?? 0).toBeGreaterThan(100);
      expect(streams.total).toBeGreaterThanOrEqual(10);
    }, 150_000);
  });
}
