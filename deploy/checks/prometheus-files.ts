// What the Prometheus and Grafana checks share (prometheus-rules, prometheus-scrape and grafana-dashboard
// tests): the rule files of deploy/prometheus, the metric names a PromQL expression reads, the names a
// process's /metrics exposes, and where Debian's `prometheus` package put its tools.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export const REPO = path.resolve(__dirname, '../..');
export const PROMETHEUS_DIR = path.join(REPO, 'deploy/prometheus');
export const RULE_FILES = ['rules.yml', 'alerts.yml'].map((file) => path.join(PROMETHEUS_DIR, file));
export const DASHBOARD = path.join(REPO, 'deploy/grafana/task-manager.json');

export interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** Every rule of one rule file, in order. */
export function rulesOf(file: string): Rule[] {
  const doc = parse(readFileSync(file, 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
  return doc.groups.flatMap((group) => group.rules);
}

/**
 * A tool of Debian's `prometheus` package, on PATH or where the package puts it; undefined (and the reason,
 * printed once by the caller) when absent: .ci/run installs the package, a developer may not have it.
 */
export function debianTool(name: 'promtool' | 'prometheus'): string | undefined {
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  const candidates = [onPath, `/usr/bin/${name}`].filter(Boolean);
  return candidates.find((candidate) => existsSync(candidate) && spawnSync(candidate, ['--version'], { encoding: 'utf8' }).status === 0);
}

const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'inf', 'nan']);

/**
 * The metric names a PromQL expression reads. Not a full parser, but enough for our expressions: string
 * literals, label matchers (`{…}`), ranges (`[5m]`), `offset` durations and the label lists of `by`,
 * `without`, `on`, `ignoring` and `group_*` are dropped; every identifier left that is not a function call,
 * a keyword or a number is a name.
 */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\boffset\s+-?\w+/gi, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const word = match[0];
    const after = stripped.slice((match.index ?? 0) + word.length).trimStart();
    if (after.startsWith('(') || KEYWORDS.has(word.toLowerCase())) continue;
    // The `e` of a float such as 1e3 is not a name.
    if (/\d$/.test(stripped.slice(0, match.index).trimEnd()) && /^e\d*$/i.test(word)) continue;
    names.add(word);
  }
  return [...names].sort();
}

/**
 * The series names a Prometheus text exposition offers: every `# TYPE` line (so a labelled counter or a
 * histogram nothing has touched yet counts too), a histogram as its `_bucket`, `_sum` and `_count`.
 */
export function exposedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) {
      const [, name, kind] = type as unknown as [string, string, string];
      if (kind === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
      else if (kind === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(name + suffix);
      else names.add(name);
      continue;
    }
    const sample = /^([A-Za-z_:][A-Za-z0-9_:]*)[{ ]/.exec(line)?.[1];
    if (sample) names.add(sample);
  }
  return names;
}

/** Series Prometheus itself makes: `up` per target, `ALERTS` per alert. */
export const PROMETHEUS_NAMES = ['up', 'ALERTS', 'ALERTS_FOR_STATE'];
