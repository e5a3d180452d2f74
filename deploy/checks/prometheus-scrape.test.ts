/**
 * A real Prometheus (Debian's `prometheus` package; skipped with the reason when absent) scraping a running
 * stack: deploy/prometheus/prometheus.example.yml with its targets moved to the stack's processes and a 1 s
 * scrape and evaluation interval, a temporary data folder, a free loopback port. The gateway's and both
 * services' series must arrive (`up` 1 for each job, and series of the app's own), and the rules of
 * rules.yml and alerts.yml must load and evaluate without an error against what the processes really expose.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, signUp, startStack, tempDir, type RunningStack } from '@tm/test-support';
import { parse, stringify } from 'yaml';
import { debianTool, PROMETHEUS_DIR, RULE_FILES, rulesOf } from './prometheus-files';

const prometheus = debianTool('prometheus');
if (!prometheus) console.warn('prometheus not found: the live scrape of a running stack is skipped (Debian: apt-get install -y prometheus)');
const describeLive = prometheus ? describe : describe.skip;

const JOBS = ['gateway', 'svc-users', 'svc-todos'] as const;


interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

/** Polls `check` every 250 ms until it returns a value, or fails with what it saw last. */
async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: string | undefined;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error instanceof Error ? error.message : JSON.stringify(error);
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last: ${last})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describeLive('Prometheus scraping a running stack', () => {
  let stack: RunningStack;
  let server: ChildProcess;
  let api: string;
  let log = '';
  const temp = tempDir('tm-prometheus-');

  /** An instant query through Prometheus's HTTP API. */
  async function query(promql: string): Promise<Sample[]> {
    const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await response.json()) as { status: string; data: { result: Sample[] }; error?: string };
    if (body.status !== 'success') throw new Error(`${promql}: ${body.error ?? response.status}`);
    return body.data.result;
  }

  beforeAll(async () => {
    stack = await startStack();
    // Traffic through the gateway to both services: every process has request series of its own.
    const { client } = await signUp(stack.url, { name: 'Prometheus Scrape' });
    expect((await client.post('/api/todo/add-todo', { title: 'scraped' })).status).toBe(201);
    expect((await client.get('/api/todo/fetch-todo')).status).toBe(200);

    const hostOf = (url: string) => new URL(url).host;
    const targets: Record<(typeof JOBS)[number], string> = { gateway: hostOf(stack.gateway.opsUrl!), 'svc-users': hostOf(stack.users.url), 'svc-todos': hostOf(stack.todos.url) };
    const config = parse(readFileSync(path.join(PROMETHEUS_DIR, 'prometheus.example.yml'), 'utf8')) as { global: Record<string, string>; rule_files: string[]; scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[] };
    config.global = { ...config.global, scrape_interval: '1s', evaluation_interval: '1s' };
    config.rule_files = RULE_FILES;
    expect(config.scrape_configs.map((job) => job.job_name).sort()).toEqual([...JOBS].sort());
    for (const job of config.scrape_configs) job.static_configs = [{ targets: [targets[job.job_name as (typeof JOBS)[number]]] }];
    const file = path.join(temp.dir, 'prometheus.yml');
    writeFileSync(file, stringify(config));

    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    server = spawn(prometheus!, [`--config.file=${file}`, `--storage.tsdb.path=${path.join(temp.dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await until('Prometheus ready', 20_000, async () => {
      if (server.exitCode !== null) throw new Error(`prometheus exited with ${server.exitCode}: ${log}`);
      return (await fetch(`${api}/-/ready`)).ok || undefined;
    });
  }, 60_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await stack?.stop();
    temp.remove();
  });

  it('sees up == 1 for the gateway and both services', async () => {
    const up = await until('up == 1 for every job', 20_000, async () => {
      const samples = await query('up');
      return JOBS.every((job) => samples.some((sample) => sample.metric.job === job && sample.value[1] === '1')) ? samples : undefined;
    });
    expect(up.map((sample) => sample.metric.job).sort()).toEqual([...JOBS].sort());
  }, 30_000);

  it("receives each process's own series: requests, readiness, live-stream caps", async () => {
    const has = async (promql: string) => (await query(promql)).length > 0 || undefined;
    for (const job of JOBS) {
      await until(`${job}: requests served`, 20_000, () => has(`http_request_duration_seconds_count{job="${job}"}`));
      await until(`${job}: ready`, 20_000, () => has(`readiness_ready{job="${job}"} == 1`));
    }
    // The series the saturation alerts divide.
    expect(await query('gateway_live_streams_max')).toHaveLength(1);
    expect(await query('todo_live_streams_max')).toHaveLength(1);
    const checks = (await query('readiness_check_up{job="gateway"}')).map((sample) => `${sample.metric.check}=${sample.value[1]}`).sort();
    expect(checks).toEqual(['sessions=1', 'todos=1', 'users=1']);
  }, 60_000);

  it('loads every rule, and evaluates each without an error against the real series', async () => {
    const expected = RULE_FILES.flatMap(rulesOf).length;
    type Loaded = { name: string; health: string; lastError?: string; type: string };
    const rules = await until('every rule evaluated once', 20_000, async () => {
      const body = (await (await fetch(`${api}/api/v1/rules`)).json()) as { data: { groups: { rules: Loaded[] }[] } };
      const loaded = body.data.groups.flatMap((group) => group.rules);
      return loaded.length === expected && loaded.every((rule) => rule.health !== 'unknown') ? loaded : undefined;
    });
    expect(rules.filter((rule) => rule.health !== 'ok').map((rule) => `${rule.name}: ${rule.lastError ?? rule.health}`)).toEqual([]);
    // The request rate per service, recorded from the real histograms.
    const rates = await until('service:http_requests:rate5m for each service', 20_000, async () => {
      const samples = await query('service:http_requests:rate5m');
      return samples.length === 3 ? samples : undefined;
    });
    expect(rates.map((sample) => sample.metric.service).sort()).toEqual(['gateway', 'svc-todos', 'svc-users']);
  }, 60_000);
});
