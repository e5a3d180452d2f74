/**
 * Checks of the k6 scripts in deploy/k6 that need no k6 (k6-run.test.ts runs them with k6 when it is on PATH):
 * - they type-check against @types/k6 (`tsc -p deploy/k6/tsconfig.json`: strict, checkJs);
 * - they parse as ES2017 modules (acorn), so none of the syntax older k6 runtimes reject slips in
 *   (`?.`, `??`, object spread, optional catch binding, class fields), and import only k6 built-ins and
 *   each other (they run offline: no remote modules);
 * - their exported `options`, read by evaluating each script in a sandbox with inert stand-ins for the k6
 *   modules (any HTTP call there fails: k6 forbids requests in the init context), carry the thresholds and
 *   scenarios the README promises, in forms k6 accepts: known metrics, valid expressions, executors with
 *   their required fields, `exec` functions that exist.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { parse, type Program } from 'acorn';

const REPO = path.resolve(__dirname, '../..');
const K6_DIR = path.join(REPO, 'deploy/k6');
const SCRIPTS = ['smoke.js', 'load.js', 'stress.js'];
const ALL_JS = readdirSync(K6_DIR)
  .filter((f) => f.endsWith('.js'))
  .sort();
const K6_MODULES = ['k6', 'k6/http', 'k6/metrics', 'k6/execution'];
const PARSE_OPTIONS = { ecmaVersion: 2017, sourceType: 'module' } as const;

// ------------------------------------------------------------------------------------- evaluating options

type Exports = Record<string, unknown>;
type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';

/** Custom metrics created by the scripts while loading (name → type). */
interface Loaded {
  exports: Exports;
  metrics: Map<string, MetricType>;
}

function inert(what: string): () => never {
  return () => {
    throw new Error(`${what} called while loading the script (k6 init context)`);
  };
}

/** Stand-ins for the k6 modules: enough to evaluate the init context, nothing that does I/O. */
function fakeK6(metrics: Map<string, MetricType>): Record<string, Exports> {
  const metric = (type: MetricType) =>
    class {
      constructor(name: string) {
        metrics.set(name, type);
      }
      add = inert('Metric.add');
    };
  const http = {
    CookieJar: class {
      cookiesForURL = inert('CookieJar.cookiesForURL');
    },
    cookieJar: inert('http.cookieJar'),
    expectedStatuses: inert('http.expectedStatuses'),
    request: inert('http.request'),
    get: inert('http.get'),
    post: inert('http.post'),
    put: inert('http.put'),
    del: inert('http.del'),
    batch: inert('http.batch'),
  };
  const execution = { scenario: {}, instance: {}, test: {}, vu: { idInTest: 0, metrics: { tags: {}, metadata: {} } } };
  return {
    k6: { check: inert('check'), sleep: inert('sleep'), group: inert('group'), fail: inert('fail') },
    'k6/http': { default: http, ...http },
    'k6/metrics': { Counter: metric('counter'), Gauge: metric('gauge'), Rate: metric('rate'), Trend: metric('trend') },
    'k6/execution': { default: execution, ...execution },
  };
}

/**
 * Turns an ES module into a function body: imports become reads from `__import(source)`, `export`
 * keywords are dropped and the exported bindings copied to `__exports` at the end.
 */
function toFunctionBody(source: string, program: Program): string {
  const out: string[] = [];
  const exported: string[] = [];
  let pos = 0;
  for (const node of program.body) {
    out.push(source.slice(pos, node.start));
    pos = node.end;
    if (node.type === 'ImportDeclaration') {
      const from = JSON.stringify(node.source.value);
      for (const spec of node.specifiers) {
        if (spec.type === 'ImportDefaultSpecifier') out.push(`const ${spec.local.name} = __import(${from}).default;`);
        else if (spec.type === 'ImportNamespaceSpecifier') out.push(`const ${spec.local.name} = __import(${from});`);
        else {
          const imported = spec.imported.type === 'Identifier' ? spec.imported.name : String(spec.imported.value);
          out.push(`const ${spec.local.name} = __import(${from})[${JSON.stringify(imported)}];`);
        }
      }
    } else if (node.type === 'ExportNamedDeclaration') {
      if (node.declaration) {
        out.push(source.slice(node.declaration.start, node.declaration.end));
        const decl = node.declaration;
        if (decl.type === 'VariableDeclaration') {
          for (const d of decl.declarations) if (d.id.type === 'Identifier') exported.push(d.id.name);
        } else if (decl.id) exported.push(decl.id.name);
      } else {
        for (const spec of node.specifiers) {
          const local = spec.local.type === 'Identifier' ? spec.local.name : String(spec.local.value);
          const name = spec.exported.type === 'Identifier' ? spec.exported.name : String(spec.exported.value);
          out.push(`__exports[${JSON.stringify(name)}] = ${local};`);
        }
      }
    } else if (node.type === 'ExportDefaultDeclaration') {
      out.push(`__exports.default = (${source.slice(node.declaration.start, node.declaration.end)});`);
    } else if (node.type === 'ExportAllDeclaration') {
      throw new Error('export * is not supported by this loader');
    } else {
      out.push(source.slice(node.start, node.end));
    }
  }
  out.push(source.slice(pos));
  for (const name of exported) out.push(`\n__exports[${JSON.stringify(name)}] = ${name};`);
  return out.join('');
}

/** Evaluates a script of deploy/k6 (and the local modules it imports) with `__ENV = env`. */
function loadScript(file: string, env: Record<string, string> = {}): Loaded {
  const metrics = new Map<string, MetricType>();
  const k6 = fakeK6(metrics);
  const cache = new Map<string, Exports>();
  const context = vm.createContext({ __ENV: { ...env }, __VU: 0, __ITER: 0 });
  const load = (name: string): Exports => {
    const cached = cache.get(name);
    if (cached) return cached;
    const filename = path.join(K6_DIR, name);
    const source = readFileSync(filename, 'utf8');
    const body = toFunctionBody(source, parse(source, PARSE_OPTIONS));
    const exports: Exports = {};
    cache.set(name, exports);
    const run = new vm.Script(`(function (__import, __exports) {${body}\n})`, { filename }).runInContext(context) as (
      imp: (source: string) => Exports,
      exp: Exports,
    ) => void;
    run((spec) => {
      const mod = k6[spec];
      if (mod) return mod;
      if (spec.startsWith('./')) return load(spec.slice(2));
      throw new Error(`${name} imports ${spec}: not a k6 built-in or a local module`);
    }, exports);
    return exports;
  };
  return { exports: load(file), metrics };
}

interface ObjectThreshold {
  threshold: string;
  abortOnFail?: boolean;
  delayAbortEval?: string;
}
type Threshold = string | ObjectThreshold;
interface Scenario {
  executor: string;
  exec?: string;
  [key: string]: unknown;
}
interface Options {
  scenarios?: Record<string, Scenario>;
  thresholds?: Record<string, Threshold[]>;
  [key: string]: unknown;
}

function optionsOf(file: string, env: Record<string, string> = {}): { options: Options; loaded: Loaded } {
  const loaded = loadScript(file, env);
  const options = loaded.exports.options as Options | undefined;
  if (!options || typeof options !== 'object') throw new Error(`${file} exports no options object`);
  // A plain copy: objects made inside the sandbox have another realm's prototypes.
  return { options: JSON.parse(JSON.stringify(options)) as Options, loaded };
}

/** k6's built-in metrics (the ones a threshold here may name) and their types. */
const BUILTIN_METRICS: Record<string, MetricType> = {
  checks: 'rate',
  http_req_failed: 'rate',
  http_req_duration: 'trend',
  http_req_waiting: 'trend',
  http_req_blocked: 'trend',
  http_req_connecting: 'trend',
  http_req_sending: 'trend',
  http_req_receiving: 'trend',
  http_req_tls_handshaking: 'trend',
  iteration_duration: 'trend',
  http_reqs: 'counter',
  iterations: 'counter',
  dropped_iterations: 'counter',
  data_sent: 'counter',
  data_received: 'counter',
  vus: 'gauge',
  vus_max: 'gauge',
};
const AGGREGATIONS: Record<MetricType, RegExp> = {
  counter: /^(count|rate)$/,
  gauge: /^value$/,
  rate: /^rate$/,
  trend: /^(avg|min|max|med|p\(\d+(\.\d+)?\))$/,
};
const EXPRESSION = /^\s*([a-z]+(?:\(\d+(?:\.\d+)?\))?)\s*(<=|>=|===|==|!=|<|>)\s*(\d+(?:\.\d+)?)\s*$/;
const THRESHOLD_KEY = /^([a-z_][a-z0-9_]*)(?:\{([a-z_]+):([A-Za-z0-9_.-]+)\})?$/;

/** What k6 would refuse at start-up in these thresholds (empty when none). */
function thresholdProblems(options: Options, custom: Map<string, MetricType>): string[] {
  const problems: string[] = [];
  for (const [key, list] of Object.entries(options.thresholds ?? {})) {
    const parts = THRESHOLD_KEY.exec(key);
    if (!parts) {
      problems.push(`${key}: not "metric" or "metric{tag:value}"`);
      continue;
    }
    const metric = parts[1]!;
    const type = BUILTIN_METRICS[metric] ?? custom.get(metric);
    if (!type) {
      problems.push(`${key}: no built-in or custom metric named ${metric}`);
      continue;
    }
    for (const entry of list) {
      const expression = typeof entry === 'string' ? entry : entry.threshold;
      const match = EXPRESSION.exec(expression);
      if (!match) problems.push(`${key}: "${expression}" is not "aggregation operator number"`);
      else if (!AGGREGATIONS[type].test(match[1]!)) problems.push(`${key}: ${match[1]} does not apply to a ${type} metric`);
    }
  }
  return problems;
}

const DURATION = /^(\d+(\.\d+)?(ms|s|m|h))+$/;
const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** What k6 would refuse at start-up in these scenarios (empty when none). */
function scenarioProblems(options: Options, exports: Exports): string[] {
  const problems: string[] = [];
  for (const [name, s] of Object.entries(options.scenarios ?? {})) {
    const need = (field: string, ok: (v: unknown) => boolean) => {
      if (!ok(s[field])) problems.push(`${name}.${field} = ${JSON.stringify(s[field])}`);
    };
    const optional = (field: string, ok: (v: unknown) => boolean) => {
      if (s[field] !== undefined) need(field, ok);
    };
    const duration = (v: unknown) => typeof v === 'string' && DURATION.test(v);
    const stages = (v: unknown) =>
      Array.isArray(v) &&
      v.length > 0 &&
      v.every((st: { target?: unknown; duration?: unknown }) => isCount(st.target) && duration(st.duration));
    const exec = s.exec ?? 'default';
    if (typeof exports[exec] !== 'function') problems.push(`${name}: exec function "${exec}" is not exported`);
    switch (s.executor) {
      case 'per-vu-iterations':
      case 'shared-iterations':
        optional('vus', isCount);
        optional('iterations', isCount);
        optional('maxDuration', duration);
        break;
      case 'constant-arrival-rate':
        need('rate', (v) => isCount(v) && (v as number) > 0);
        need('duration', duration);
        need('preAllocatedVUs', isCount);
        optional('maxVUs', isCount);
        optional('timeUnit', duration);
        break;
      case 'constant-vus':
        need('vus', (v) => isCount(v) && (v as number) > 0);
        need('duration', duration);
        optional('gracefulStop', duration);
        break;
      case 'ramping-arrival-rate':
        need('stages', stages);
        need('preAllocatedVUs', isCount);
        optional('startRate', isCount);
        optional('maxVUs', isCount);
        optional('timeUnit', duration);
        break;
      default:
        problems.push(`${name}: executor ${s.executor} is not used by these scripts`);
    }
  }
  return problems;
}

// --------------------------------------------------------------------------------------------------- tests

describe('k6 scripts', () => {
  it('are all here', () => {
    expect(ALL_JS).toEqual(expect.arrayContaining(['lib.js', ...SCRIPTS]));
  });

  it('type-check against @types/k6 (tsc -p deploy/k6/tsconfig.json)', () => {
    const tsc = spawnSync(path.join(REPO, 'node_modules/.bin/tsc'), ['-p', 'deploy/k6/tsconfig.json'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    expect({ status: tsc.status, output: `${tsc.stdout}${tsc.stderr}`.trim() }).toEqual({ status: 0, output: '' });
  });

  describe('syntax', () => {
    it('the parser options refuse what k6 0.48 cannot run', () => {
      const refused = ['a?.b;', 'a ?? b;', 'const o = { ...x };', 'try {} catch {}', 'class A { f = 1; }'];
      for (const code of refused) expect(() => parse(code, PARSE_OPTIONS)).toThrow(SyntaxError);
      expect(() => parse('const f = (...a) => `${a}`; export default f;', PARSE_OPTIONS)).not.toThrow();
    });

    it.each(ALL_JS)('%s is an ES2017 module', (file) => {
      const source = readFileSync(path.join(K6_DIR, file), 'utf8');
      let error = '';
      try {
        parse(source, PARSE_OPTIONS);
      } catch (err) {
        error = `${file}: ${(err as Error).message}`;
      }
      expect(error).toBe('');
    });

    it.each(ALL_JS)('%s imports only k6 built-ins and local modules', (file) => {
      const source = readFileSync(path.join(K6_DIR, file), 'utf8');
      const sources = parse(source, PARSE_OPTIONS)
        .body.filter((n) => n.type === 'ImportDeclaration' || n.type === 'ExportAllDeclaration' || n.type === 'ExportNamedDeclaration')
        .map((n) => ('source' in n && n.source ? String(n.source.value) : ''))
        .filter((s) => s !== '');
      const local = sources.filter((s) => /^\.\/[\w-]+\.js$/.test(s));
      expect(sources.filter((s) => !K6_MODULES.includes(s) && !local.includes(s))).toEqual([]);
      for (const s of local) expect(ALL_JS).toContain(s.slice(2));
    });
  });

  describe('options', () => {
    it.each(SCRIPTS)('%s: thresholds and scenarios k6 accepts, no HTTP in the init context', (file) => {
      const { options, loaded } = optionsOf(file);
      expect(thresholdProblems(options, loaded.metrics)).toEqual([]);
      expect(scenarioProblems(options, loaded.exports)).toEqual([]);
      expect(Object.keys(options.scenarios ?? {}).length).toBeGreaterThan(0);
    });

    it('smoke.js: one VU, a few iterations, nothing may fail', () => {
      const { options } = optionsOf('smoke.js');
      expect(Object.values(options.scenarios ?? {})).toEqual([
        expect.objectContaining({ executor: 'per-vu-iterations', vus: 1, iterations: 2 }),
      ]);
      expect(options.thresholds).toMatchObject({ http_req_failed: ['rate==0'], checks: ['rate==1'] });
      expect(optionsOf('smoke.js', { ITERATIONS: '5' }).options.scenarios?.smoke?.iterations).toBe(5);
    });

    it('load.js: browse, a separate fixed-rate login, and held live streams; error, check and per-endpoint p95 thresholds', () => {
      const { options } = optionsOf('load.js');
      // A held stream ends by its own timeout, so the error rate is judged per request scenario.
      expect(options.thresholds?.http_req_failed).toBeUndefined();
      expect(options.thresholds).toMatchObject({
        'http_req_failed{scenario:browse}': ['rate<0.01'],
        'http_req_failed{scenario:login}': ['rate<0.01'],
        stream_held: ['rate>0.99'],
        checks: ['rate>0.99'],
        'http_req_duration{name:fetch-todo}': ['p(95)<300'],
        'http_req_duration{name:add-todo}': ['p(95)<300'],
        'http_req_duration{name:update-todo}': ['p(95)<300'],
        'http_req_duration{name:delete-todo}': ['p(95)<300'],
        'http_req_duration{name:login}': ['p(95)<500'],
        'http_req_duration{name:signup}': ['p(95)<2000'],
        auth_rate_limited: ['count==0'],
      });
      const scenarios = options.scenarios ?? {};
      expect(Object.keys(scenarios).sort()).toEqual(['browse', 'login', 'streams']);
      expect(scenarios.streams).toMatchObject({ executor: 'constant-vus', exec: 'stream', vus: 20 });
      expect(scenarios.browse).toMatchObject({ executor: 'constant-arrival-rate', exec: 'browse' });
      //10 sign-ins a second on 2 cores (Argon2id), measured by `pnpm bench` (perf/bench/bench-hash.mjs).
      expect(scenarios.login).toMatchObject({ executor: 'constant-arrival-rate', exec: 'signIn', rate: 10, timeUnit: '1s' });
      expect(scenarios.login?.exec).not.toBe(scenarios.browse?.exec);
    });

    it('load.js: rates and limits come from the environment', () => {
      const { options } = optionsOf('load.js', {
        BROWSE_RATE: '40',
        LOGIN_RATE: '2',
        LOGIN_TIME_UNIT: '10s',
        DURATION: '30s',
        TODO_P95_MS: '500',
        AUTH_P95_MS: '3000',
        SIGNUP_P95_MS: '4000',
      });
      expect(options.scenarios?.browse).toMatchObject({ rate: 40, duration: '30s' });
      expect(options.scenarios?.login).toMatchObject({ rate: 2, timeUnit: '10s', duration: '30s' });
      expect(options.thresholds?.['http_req_duration{name:fetch-todo}']).toEqual(['p(95)<500']);
      expect(options.thresholds?.['http_req_duration{name:login}']).toEqual(['p(95)<3000']);
      expect(options.thresholds?.['http_req_duration{name:signup}']).toEqual(['p(95)<4000']);
      expect(() => optionsOf('load.js', { LOGIN_RATE: '0.5' })).toThrow(/LOGIN_RATE must be a whole number/);
      expect(() => optionsOf('load.js', { BROWSE_RATE: 'fast' })).toThrow(/BROWSE_RATE must be a non-negative number/);
    });

    it('stress.js: a stepped ramping arrival rate that aborts on errors, with p95 and errors per step', () => {
      const { options } = optionsOf('stress.js');
      const scenarios = Object.values(options.scenarios ?? {});
      expect(scenarios).toHaveLength(1);
      const stress = scenarios[0] as Scenario & { stages: { target: number; duration: string }[] };
      expect(stress.executor).toBe('ramping-arrival-rate');
      const targets = stress.stages.map((s) => s.target);
      expect(targets).toEqual([...targets].sort((a, b) => a - b));
      expect(new Set(targets).size).toBeGreaterThan(3);

      const thresholds = options.thresholds ?? {};
      for (const metric of ['http_req_failed', 'checks']) {
        expect(thresholds[metric]).toEqual([expect.objectContaining({ abortOnFail: true })]);
      }
      expect(thresholds.http_req_failed).toEqual([expect.objectContaining({ threshold: 'rate<0.05' })]);
      expect(thresholds['http_req_duration{name:fetch-todo}']).toEqual(['p(95)<300']);
      for (const target of new Set(targets)) {
        const step = `r${String(target).padStart(4, '0')}`;
        expect(thresholds).toHaveProperty([`todo_req_duration{stage:${step}}`]);
        expect(thresholds).toHaveProperty([`http_req_failed{stage:${step}}`]);
      }
    });

    it('stress.js: the load program comes from the environment', () => {
      const stepped = optionsOf('stress.js', {
        STRESS_START_RATE: '5',
        STRESS_STEP_RATE: '5',
        STRESS_STEPS: '2',
        STRESS_STEP_DURATION: '30s',
        STRESS_RAMP_DURATION: '5s',
        STRESS_MAX_ERROR_RATE: '0.1',
      }).options;
      expect(stepped.scenarios?.stress).toMatchObject({
        startRate: 5,
        stages: [
          { target: 5, duration: '30s' },
          { target: 10, duration: '5s' },
          { target: 10, duration: '30s' },
          { target: 15, duration: '5s' },
          { target: 15, duration: '30s' },
        ],
      });
      expect(stepped.thresholds?.http_req_failed).toEqual([expect.objectContaining({ threshold: 'rate<0.1' })]);
      expect(stepped.thresholds?.checks).toEqual([expect.objectContaining({ threshold: 'rate>0.9000' })]);

      const custom = optionsOf('stress.js', { STRESS_STAGES: '20:1m, 50:1m30s,100:2m' }).options;
      expect(custom.scenarios?.stress?.stages).toEqual([
        { target: 20, duration: '1m' },
        { target: 50, duration: '1m30s' },
        { target: 100, duration: '2m' },
      ]);
      expect(() => optionsOf('stress.js', { STRESS_STAGES: '20-1m' })).toThrow(/STRESS_STAGES/);
      expect(() => optionsOf('stress.js', { STRESS_STAGES: '20:soon' })).toThrow(/not a duration/);
    });
  });

  describe('the checks catch broken options', () => {
    it('unknown metrics, bad expressions, wrong aggregations', () => {
      const problems = thresholdProblems(
        { thresholds: { http_req_duratoin: ['p(95)<300'], checks: ['p(95)<1'], http_req_failed: ['rate < 1%'] } },
        new Map(),
      );
      expect(problems).toHaveLength(3);
    });

    it('missing exec functions and required scenario fields', () => {
      const problems = scenarioProblems(
        { scenarios: { a: { executor: 'constant-arrival-rate', exec: 'nope', rate: 0.5, duration: '1 minute' } } },
        {},
      );
      expect(problems).toEqual([
        'a: exec function "nope" is not exported',
        'a.rate = 0.5',
        'a.duration = "1 minute"',
        'a.preAllocatedVUs = undefined',
      ]);
    });

    it('HTTP in the init context', () => {
      const request = fakeK6(new Map())['k6/http']!.request as () => void;
      expect(() => request()).toThrow(/init context/);
    });
  });
});
