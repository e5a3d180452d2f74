import { runScriptReport } from './script-report.js';

interface Phase {
  requests: number;
  rps: number;
  errors: number;
  errorRate: number;
  latencyMs: { p50: number; p95: number; p99: number };
}

interface ProcessMemory {
  pid: number;
  /** What the process holds after a full GC (V8 heap in use plus memory outside it), before and after the soak. */
  retainedMiB: { start: number; end: number };
  /** Growth of `retainedMiB` (what the script's exit code looks at). */
  growthPct: number;
  /** RSS under load: median of the first 3 and of the last 3 samples of the soak (reported). */
  startMiB: number;
  endMiB: number;
  rssGrowthPct: number;
}

interface Report {
  peak: Phase;
  soak: Phase & { targetRate: number; rateAchieved: number };
  memory: Record<'gateway' | 'svc-users' | 'svc-todos', ProcessMemory>;
  writes: {
    acknowledgedAdds: number;
    deletedOnPurpose: number;
    lostAcknowledgedWrites: number;
    presentAfterDelete: number;
    accountingConsistent: boolean;
    finalListSize: { min: number; max: number };
  };
  checks: Record<string, boolean>;
  ok: boolean;
}

// The soak is 5 minutes with `pnpm soak`; here its short form: 8 users with lists of 20 tasks (sign-up hashes
// and checks password strength at production cost, so fewer users start sooner), a 5 s peak burst, then 20 s at 70 % of it.
// Memory: the script's figure is what each process holds after a full garbage collection (its probe,
// perf/soak/gc-probe.cjs), after the soak vs before it. Garbage not yet collected is not in it, so it does not
// move with load, only with what stays alive: over 20 s on this 2-core machine it grew by 0.5–5.6 % (the
// gateway's 30 MiB by 1.7 MiB at most, the same over 60 s and 10 000 requests: caches reaching their working
// size). The bound here is 15 % (the script's --max-growth, which also sets its exit code), the 5-minute run's
// 10 %: a leak of 1 KiB per request or more fails it. RSS is reported, not bounded: V8 alone moves it by up to
// 35 % in 20 s without any leak. Errors and lost writes keep full bounds.
const ARGS = ['perf/soak/soak.mjs', '--seconds', '20', '--peak-seconds', '5', '--users', '8', '--cap', '20', '--max-growth', '15', '--json'];

describe('soak through the gateway (short run of perf/soak/soak.mjs)', () => {
  it('holds 70 % of peak with < 0.1 % errors, no lost acknowledged write and bounded memory growth', () => {
    const { report, status } = runScriptReport<Report>(ARGS, { timeoutMs: 100_000 });
    expect(report.peak.requests).toBeGreaterThan(200);
    expect(report.soak.targetRate).toBe(Math.max(1, Math.round(report.peak.rps * 0.7)));
    expect(report.soak.requests).toBeGreaterThan(report.soak.targetRate * 20 * 0.7);
    expect(report.peak.errorRate).toBeLessThan(0.001);
    expect(report.soak.errorRate).toBeLessThan(0.001);
    expect(report.writes.acknowledgedAdds).toBeGreaterThan(8 * 20);
    expect(report.writes.deletedOnPurpose).toBeGreaterThan(0);
    expect(report.writes.lostAcknowledgedWrites).toBe(0);
    expect(report.writes.presentAfterDelete).toBe(0);
    expect(report.writes.accountingConsistent).toBe(true);
    // Lists stayed bounded: the cap, plus per connection of the user (4) one add not yet trimmed and one
    // delete cut off by the end of the run.
    expect(report.writes.finalListSize.max).toBeLessThanOrEqual(20 + 2 * 4);
    // Each of the three processes measured before and after; the ones over the bound, if any.
    const memory = Object.entries(report.memory);
    expect(memory.map(([name]) => name).sort()).toEqual(['gateway', 'svc-todos', 'svc-users']);
    expect(memory.filter(([, m]) => !(m.pid > 0 && m.retainedMiB.start > 0 && m.retainedMiB.end > 0 && m.startMiB > m.retainedMiB.start))).toEqual([]);
    expect(memory.filter(([, m]) => !(m.growthPct < 15)).map(([name, m]) => [name, m.growthPct])).toEqual([]);
    expect(report.checks).toEqual({ errorRate: true, lost: true, accounting: true, memory: true });
    expect(report.ok).toBe(true);
    expect(status).toBe(0);
  }, 120_000);
});
