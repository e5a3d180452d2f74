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
  /** RSS: median of the first 3 and of the last 3 samples of the soak. */
  startMiB: number;
  endMiB: number;
  /** RSS growth less the young generation's growth (what the script's exit code looks at). */
  growthPct: number;
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
// Memory: the script's figure is RSS growth (first 3 vs last 3 samples under load) less V8's young-generation
// growth. In 20 s no process has had a full GC yet, so the old generation still holds the garbage of those
// 20 s (the gateway's heap in use goes from about 29 to 44 MiB, some 10 % of its RSS, and comes down at the
// next mark-compact); on a 2-core machine shared with other suites the samples also move by a few MiB. So the
// bound here is 25 % (the script's --max-growth, which also sets its exit code), not the 10 % the 5-minute
// run must meet: it still catches a leak of about 5 KiB per request or more. Errors and lost writes keep
// full bounds.
const ARGS = ['perf/soak/soak.mjs', '--seconds', '20', '--peak-seconds', '5', '--users', '8', '--cap', '20', '--max-growth', '25', '--json'];

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
    // RSS of each of the three processes measured at start and end; the ones over the bound, if any.
    const memory = Object.entries(report.memory);
    expect(memory.map(([name]) => name).sort()).toEqual(['gateway', 'svc-todos', 'svc-users']);
    expect(memory.filter(([, m]) => !(m.pid > 0 && m.startMiB > 0 && m.endMiB > 0 && m.growthPct <= m.rssGrowthPct))).toEqual([]);
    expect(memory.filter(([, m]) => !(m.growthPct < 25)).map(([name, m]) => [name, m.growthPct])).toEqual([]);
    expect(report.checks).toEqual({ errorRate: true, lost: true, accounting: true, memory: true });
    expect(report.ok).toBe(true);
    expect(status).toBe(0);
  }, 120_000);
});
