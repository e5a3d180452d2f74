/**
 * The Grafana dashboard (deploy/grafana/task-manager.json, docs/OPERATIONS.md "The dashboard") and the
 * Prometheus rules read only series that exist: every metric name in an expression is a recording rule of
 * deploy/prometheus/rules.yml, a series Prometheus makes itself (`up`, `ALERTS`), or a name the running
 * processes expose, read from a real `/metrics` of the gateway and both services started for this test.
 * A typo in a name would otherwise draw an empty panel, or an alert that can never fire.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type RunningStack } from '@tm/test-support';
import { DASHBOARD, exposedNames, metricNamesIn, PROMETHEUS_DIR, PROMETHEUS_NAMES, RULE_FILES, rulesOf } from './prometheus-files';

interface Target {
  expr: string;
  refId: string;
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Target[];
  gridPos: { x: number; y: number; w: number; h: number };
}
interface Dashboard {
  title: string;
  uid: string;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: string }[] };
}

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
const graphs = dashboard.panels.filter((panel) => panel.type !== 'row');
const rules = RULE_FILES.flatMap(rulesOf);
const recorded = new Set(rules.flatMap((rule) => (rule.record ? [rule.record] : [])));
const alerts = rulesOf(path.join(PROMETHEUS_DIR, 'alerts.yml')).filter((rule) => rule.alert);

describe('the Grafana dashboard, as a file', () => {
  it('is a dashboard of Prometheus panels on a chosen data source', () => {
    expect(dashboard).toMatchObject({ title: 'Task Manager', uid: 'task-manager' });
    expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }));
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(graphs.length).toBeGreaterThanOrEqual(15);
    for (const panel of graphs) {
      expect({ panel: panel.title, datasource: panel.datasource }).toEqual({ panel: panel.title, datasource: { type: 'prometheus', uid: '${datasource}' } });
      expect({ panel: panel.title, targets: (panel.targets ?? []).length > 0 }).toEqual({ panel: panel.title, targets: true });
      const refIds = (panel.targets ?? []).map((target) => target.refId);
      expect(new Set(refIds).size).toBe(refIds.length);
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
    }
  });

  it('shows what every alert watches: one of its series, or the recording rule it reads', () => {
    const shown = new Set(graphs.flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricNamesIn(target.expr))));
    for (const rule of alerts) {
      expect({ alert: rule.alert, shown: metricNamesIn(rule.expr).some((name) => shown.has(name)) }).toEqual({ alert: rule.alert, shown: true });
    }
  });

  it('reads metric names out of PromQL, not functions, keywords, labels or durations', () => {
    expect(metricNamesIn('sum by (service, le) (rate(http_request_duration_seconds_bucket{route!~".*/events", status=~"5.."}[5m])) > 0.5 and on (service) x:y:z')).toEqual([
      'http_request_duration_seconds_bucket',
      'x:y:z',
    ]);
    expect(metricNamesIn('histogram_quantile(0.95, a) / b offset 1h > 1e3 unless c')).toEqual(['a', 'b', 'c']);
  });
});

describe('the dashboard and the rules against a running stack', () => {
  let stack: RunningStack;
  let exposed: Set<string>;
  beforeAll(async () => {
    stack = await startStack();
    exposed = new Set<string>();
    for (const url of [stack.gateway.opsUrl!, stack.users.url, stack.todos.url]) {
      const response = await fetch(`${url}/metrics`);
      expect(response.status).toBe(200);
      for (const name of exposedNames(await response.text())) exposed.add(name);
    }
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  const unknown = (expr: string) => metricNamesIn(expr).filter((name) => !recorded.has(name) && !PROMETHEUS_NAMES.includes(name) && !exposed.has(name));

  it('exposes the names this check relies on (the scrape is read right)', () => {
    for (const name of ['http_request_duration_seconds_bucket', 'nodejs_eventloop_lag_p99_seconds', 'readiness_ready', 'gateway_live_streams_max', 'todo_live_streams_max', 'web_vitals_lcp_seconds_bucket']) {
      expect({ name, exposed: exposed.has(name) }).toEqual({ name, exposed: true });
    }
    expect(exposed.has('web_vitals_lcp_seconds')).toBe(false);
  });

  it('every dashboard expression reads only recorded, Prometheus-made or exposed series', () => {
    for (const panel of graphs) {
      for (const target of panel.targets ?? []) expect({ panel: panel.title, expr: target.expr, unknown: unknown(target.expr) }).toEqual({ panel: panel.title, expr: target.expr, unknown: [] });
    }
  });

  it('every rule expression does too', () => {
    for (const rule of rules) expect({ rule: rule.record ?? rule.alert, unknown: unknown(rule.expr) }).toEqual({ rule: rule.record ?? rule.alert, unknown: [] });
  });
});
