import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runScriptReport } from './script-report.js';

interface Point {
  users: number;
  active: number;
  concurrent: number;
  peakCalls: number;
  peakHashes: number;
  processes: { gateway: number; gatewayForCpu: number; gatewayForStreams: number; todos: number; todosForCpu?: number; users: number };
  streamCores: { gateway: number; todos: number };
  streamMemoryMiB: { gateway: number; todos: number };
  redis: { sessions: number; sessionBytes: number };
  mongo: { todoDataBytes: number; todoIndexBytes: number; userBytes: number; eventBytes: number; bytes: number };
  cdn: { firstLoadBytes: number; coldLoadsPerDay: number; bytesPerDay: number };
}

interface Model {
  limits: { gatewayMaxStreams: number; todosMaxStreams: number };
  configured: { gateway: number; todos: number };
  streamsSource: string | null;
  used: Record<string, { value: number; measured: boolean }>;
  points: Point[];
  crossings: { resource: string; atUsers: number }[];
  steps: { from: number; to: number; crossed: { resource: string }[] }[];
}

const ROOT = path.resolve(__dirname, '../..');

/** The open-stream measurement (perf/capacity/streams.json) as perf/capacity/streams.mjs writes it, in part. */
interface StreamsFile {
  opened: number;
  perStream: Record<'gateway' | 'todos', { rssKiB: number; heapKiB: number; cpuMsPerSPer1000: number }>;
  caps: Record<'gateway' | 'todos', { value: number; limitedBy: string }>;
}

/** A made-up measurement: caps below any configured default, and streams that cost visible CPU and memory. */
const STREAMS_FIXTURE: StreamsFile = {
  opened: 20_000,
  perStream: { gateway: { rssKiB: 10, heapKiB: 4, cpuMsPerSPer1000: 50 }, todos: { rssKiB: 20, heapKiB: 8, cpuMsPerSPer1000: 100 } },
  caps: { gateway: { value: 500, limitedBy: 'cpu' }, todos: { value: 700, limitedBy: 'memory' } },
};

/** A small, made-up bench output: round figures so the expected arithmetic can be written out. */
const FIXTURE = {
  generatedAt: '2026-01-01T00:00:00.000Z',
  machine: { cores: 2 },
  metrics: {
    'cpu.gateway.msPerRequest': 2,
    'cpu.gateway.add.msPerRequest': 4,
    'cpu.todos.msPerRequest': 1,
    'cpu.todos.add.msPerRequest': 1,
    'signin.perSecPerCore': 10,
    'payload.100.bytes': 20_000,
    'web.login.gzipBytes': 100_000,
    'web.tasks.gzipKiB': 200,
  },
};

describe('pnpm capacity (perf/capacity/capacity.mjs): the capacity model from the bench figures', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tm-capacity-'));
    writeFileSync(path.join(dir, 'benchmarks.json'), JSON.stringify(FIXTURE));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The model from the bench fixture; open streams as measured in `streams` (a file that does not exist: not measured). */
  const model = (streams = path.join(dir, 'no-streams.json')): Model => {
    const { report, status } = runScriptReport<Model>(['perf/capacity/capacity.mjs', '--input', path.join(dir, 'benchmarks.json'), '--streams', streams, '--json'], { timeoutMs: 20_000 });
    expect(status).toBe(0);
    return report;
  };

  it('turns the measured CPU per request, stream caps and assumptions into processes, Redis, MongoDB and CDN figures', () => {
    const { points, limits, used } = model();
    const million = points.find((p) => p.users === 1_000_000)!;
    // 10 % of 1 M active, 30 calls a day each, peak factor 5.
    expect(million.active).toBe(100_000);
    expect(million.concurrent).toBe(10_000);
    expect(million.peakCalls).toBeCloseTo((100_000 * 30 * 5) / 86_400, 6);
    // Gateway: half fetches (2 ms) and half writes (4 ms) = 3 ms a call, at 60 % of a core; but 10 000 open streams.
    expect(million.processes.gatewayForCpu).toBe(Math.ceil((million.peakCalls * 3) / 1000 / 0.6));
    expect(million.processes.gatewayForCpu).toBe(1);
    expect(million.processes.gatewayForStreams).toBe(Math.ceil(10_000 / limits.gatewayMaxStreams));
    expect(million.processes.gateway).toBe(Math.max(2, million.processes.gatewayForStreams));
    expect(million.processes.todos).toBe(Math.max(2, Math.ceil(10_000 / limits.todosMaxStreams)));
    // 0.2 hashes per active user a day × 5 at the peak = 1.16/s, against 10 per core at 60 %: the minimum of 2.
    expect(million.peakHashes).toBeCloseTo((100_000 * 0.2 * 5) / 86_400, 6);
    expect(million.processes.users).toBe(2);
    // Sessions: 25 % of users within the idle timeout × 1.5 devices × 600 bytes.
    expect(million.redis.sessions).toBe(375_000);
    expect(million.redis.sessionBytes).toBe(225_000_000);
    // Tasks: 30 per user × (200 bytes of JSON each + 80) and 100 bytes of index each.
    expect(million.mongo.todoDataBytes).toBe(1_000_000 * 30 * 280);
    expect(million.mongo.todoIndexBytes).toBe(1_000_000 * 30 * 100);
    expect(million.mongo.userBytes).toBe(400_000_000);
    expect(million.mongo.bytes).toBeCloseTo(8.4e9 + 3e9 + 4e8 + ((million.peakCalls / 2) * 600 * 400), 0);
    // The heaviest web.*gzip* figure (200 KiB > 100 000 bytes), 0.3 cold loads per active user a day.
    expect(million.cdn.firstLoadBytes).toBe(204_800);
    expect(million.cdn.bytesPerDay).toBe(30_000 * 204_800);
    expect(used['signin.perSecPerCore']).toEqual({ value: 10, measured: true });
  });

  it('names the limits each 10× step crosses, in the order they are crossed, and flags figures it had to assume', () => {
    const { steps, crossings, used, limits } = model();
    const streams = crossings.find((c) => c.resource === 'gatewayStreams')!;
    // 1 % concurrent: EVENTS_MAX_STREAMS open pages are reached at 100 × the cap in users.
    expect(streams.atUsers).toBe(limits.gatewayMaxStreams * 100);
    expect(crossings.map((c) => c.atUsers)).toEqual([...crossings.map((c) => c.atUsers)].sort((a, b) => a - b));
    expect(steps.map((s) => [s.from, s.to])).toEqual([[0, 10_000], [10_000, 100_000], [100_000, 1_000_000], [1_000_000, 10_000_000]]);
    const stepOf = (users: number) => steps.find((s) => s.from < users && users <= s.to)!;
    expect(stepOf(streams.atUsers).crossed.map((c) => c.resource)).toContain('gatewayStreams');
    expect(steps[0]!.crossed).toEqual([]);
    expect(used['payload.100.bytes']!.measured).toBe(true);

    const sparse = path.join(dir, 'sparse.json');
    writeFileSync(sparse, JSON.stringify({ metrics: { 'cpu.gateway.msPerRequest': 2 } }));
    const { report } = runScriptReport<Model>(['perf/capacity/capacity.mjs', '--input', sparse, '--json'], { timeoutMs: 20_000 });
    expect(report.used['cpu.gateway.msPerRequest']).toEqual({ value: 2, measured: true });
    expect(report.used['signin.perSecPerCore']!.measured).toBe(false);
  });

  it('rewrites only the tables between the markers of the document, keeping the prose', () => {
    const doc = path.join(dir, 'CAPACITY.md');
    writeFileSync(doc, '# Capacity\n\nHand-written prose.\n\n<!-- capacity:begin -->\nold tables\n<!-- capacity:end -->\n\nMore prose.\n');
    const run = spawnSync(process.execPath, ['perf/capacity/capacity.mjs', '--input', path.join(dir, 'benchmarks.json'), '--doc', doc], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const text = readFileSync(doc, 'utf8');
    expect(text.startsWith('# Capacity\n\nHand-written prose.\n\n<!-- capacity:begin')).toBe(true);
    expect(text.endsWith('<!-- capacity:end -->\n\nMore prose.\n')).toBe(true);
    expect(text).not.toContain('old tables');
    expect(text).toMatch(/\| \*\*gateway processes\*\* \|( \*\*\d+\*\* \|){4}/);
    // By default the measured open streams (perf/capacity/streams.json) are in the tables.
    expect(text).toContain('Open streams, measured by `node perf/capacity/streams.mjs');
    expect(text).not.toContain('Open streams: not measured');
  });

  it('sizes the processes by the open streams measured in the streams file: its caps, and the CPU of idle streams', () => {
    const file = path.join(dir, 'streams.json');
    writeFileSync(file, JSON.stringify(STREAMS_FIXTURE));
    const without = model();
    const measured = model(file);
    expect(without.streamsSource).toBeNull();
    expect(measured.streamsSource).toBe(path.relative(ROOT, file));
    // Without a measurement the configured defaults are counted; with one, the measured caps (lower here).
    expect(without.limits).toMatchObject({ gatewayMaxStreams: without.configured.gateway, todosMaxStreams: without.configured.todos });
    expect(measured.limits).toMatchObject({ gatewayMaxStreams: 500, todosMaxStreams: 700 });
    const million = measured.points.find((p) => p.users === 1_000_000)!;
    const millionWithout = without.points.find((p) => p.users === 1_000_000)!;
    expect(million.processes.gatewayForStreams).toBe(20); // 10 000 open streams / 500
    expect(million.processes.todos).toBe(15); // ⌈10 000 / 700⌉
    // 10 000 idle streams at 50 ms/s per 1 000 are half a core of gateway work, on top of 3 ms per call.
    expect(million.streamCores).toEqual({ gateway: 0.5, todos: 1 });
    expect(millionWithout.streamCores).toEqual({ gateway: 0, todos: 0 });
    expect(million.processes.gatewayForCpu).toBe(Math.ceil(((million.peakCalls * 3) / 1000 + 0.5) / 0.6));
    expect(million.processes.gatewayForCpu).toBe(2);
    expect(millionWithout.processes.gatewayForCpu).toBe(1);
    // Memory of the streams each process holds: 10 000 spread over 20 gateways × 10 KiB.
    expect(million.streamMemoryMiB.gateway).toBeCloseTo((500 * 10) / 1024, 6);
  });

  it('reads the committed measurement by default, and no configured cap allows more streams than it measured', () => {
    const committed = JSON.parse(readFileSync(path.join(ROOT, 'perf/capacity/streams.json'), 'utf8')) as StreamsFile;
    const { report, status } = runScriptReport<Model>(['perf/capacity/capacity.mjs', '--input', path.join(dir, 'benchmarks.json'), '--json'], { timeoutMs: 20_000 });
    expect(status).toBe(0);
    expect(report.streamsSource).toBe('perf/capacity/streams.json');
    expect(committed.caps.gateway.value).toBeGreaterThan(0);
    expect(committed.caps.todos.value).toBeGreaterThan(0);
    expect(committed.caps.gateway.value).toBeLessThanOrEqual(committed.opened);
    expect(report.configured.gateway).toBeLessThanOrEqual(committed.caps.gateway.value);
    expect(report.configured.todos).toBeLessThanOrEqual(committed.caps.todos.value);
    expect(report.limits).toMatchObject({ gatewayMaxStreams: report.configured.gateway, todosMaxStreams: report.configured.todos });
  });
});
