/**
 * The alert and recording rules of deploy/prometheus (docs/OPERATIONS.md "Alerts"), checked by
 * Debian's `promtool` (skipped with the reason when it is absent; .ci/run installs it):
 * - `promtool check rules` and `check config` accept the files;
 * - `promtool test rules` passes every unit test of tests/*.yml (input series → the alerts that fire at a
 *   time, and the ones that must not), and fails a test whose expectation is wrong, so they can fail;
 * - every alert has a test where it fires and one where it stays silent, a severity, and a runbook that is a
 *   section of docs/OPERATIONS.md.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '@tm/test-support';
import { parse, stringify } from 'yaml';
import { debianTool, PROMETHEUS_DIR, REPO, RULE_FILES, rulesOf } from './prometheus-files';

const TEST_DIR = path.join(PROMETHEUS_DIR, 'tests');
const TEST_FILES = readdirSync(TEST_DIR)
  .filter((file) => file.endsWith('.yml'))
  .sort()
  .map((file) => path.join(TEST_DIR, file));

interface AlertTest {
  eval_time: string;
  alertname: string;
  exp_alerts?: unknown[];
}
interface UnitTests {
  rule_files: string[];
  tests: { alert_rule_test?: AlertTest[] }[];
}

const unitTests = (file: string) => parse(readFileSync(file, 'utf8')) as UnitTests;
const alerts = rulesOf(path.join(PROMETHEUS_DIR, 'alerts.yml')).filter((rule) => rule.alert);

/** GitHub's anchor of a Markdown heading: lower case, spaces to dashes, punctuation dropped. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

describe('the alert rules, as files', () => {
  it('every alert has a severity of page or warning and a runbook that is a section of docs/OPERATIONS.md', () => {
    const operations = readFileSync(path.join(REPO, 'docs/OPERATIONS.md'), 'utf8');
    const anchors = new Set([...operations.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
    expect(alerts.length).toBeGreaterThanOrEqual(10);
    for (const rule of alerts) {
      expect({ alert: rule.alert, severity: rule.labels?.severity }).toEqual({ alert: rule.alert, severity: expect.stringMatching(/^(page|warning)$/) });
      const runbook = rule.annotations?.runbook ?? '';
      expect({ alert: rule.alert, runbook }).toEqual({ alert: rule.alert, runbook: `docs/OPERATIONS.md#${rule.alert!.toLowerCase()}` });
      expect({ alert: rule.alert, documented: anchors.has(rule.alert!.toLowerCase()) }).toEqual({ alert: rule.alert, documented: true });
    }
  });

  it('every alert is unit-tested where it fires and where it must not', () => {
    const cases = TEST_FILES.flatMap((file) => unitTests(file).tests.flatMap((test) => test.alert_rule_test ?? []));
    for (const rule of alerts) {
      const own = cases.filter((test) => test.alertname === rule.alert);
      const coverage = { alert: rule.alert, fires: own.some((test) => (test.exp_alerts ?? []).length > 0), silent: own.some((test) => (test.exp_alerts ?? []).length === 0) };
      expect(coverage).toEqual({ alert: rule.alert, fires: true, silent: true });
    }
  });
});

const promtool = debianTool('promtool');
if (!promtool) console.warn('promtool not found: the Prometheus rule checks and unit tests are skipped (Debian: apt-get install -y prometheus)');
const describeWithPromtool = promtool ? describe : describe.skip;

function run(...args: string[]) {
  const result = spawnSync(promtool!, args, { cwd: PROMETHEUS_DIR, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describeWithPromtool('the alert rules, in promtool', () => {
  it('passes `promtool check rules` and `promtool check config` with the example configuration', () => {
    const rules = run('check', 'rules', ...RULE_FILES);
    expect(rules.output).toMatch(/rules\.yml\s+SUCCESS: \d+ rules found/);
    expect(rules.output).toMatch(/alerts\.yml\s+SUCCESS: \d+ rules found/);
    expect(rules.status).toBe(0);
    const config = run('check', 'config', 'prometheus.example.yml');
    expect(config.output).toMatch(/is valid prometheus config file syntax/);
    expect(config.status).toBe(0);
  });

  it('passes every unit test of deploy/prometheus/tests (`promtool test rules`)', () => {
    expect(TEST_FILES.length).toBeGreaterThanOrEqual(5);
    const result = run('test', 'rules', ...TEST_FILES);
    expect(result.output).not.toMatch(/FAILED/);
    expect(result.output.match(/SUCCESS/g)).toHaveLength(TEST_FILES.length);
    expect(result.status).toBe(0);
  });

  it('fails a unit test whose expectation is wrong: the tests can fail', () => {
    // availability.yml with the expectations of TaskManagerTargetDown swapped: silent where it fires, firing
    // where it is still pending.
    const tests = unitTests(path.join(TEST_DIR, 'availability.yml'));
    const first = tests.tests[0]!.alert_rule_test!;
    const pending = first.find((test) => test.alertname === 'TaskManagerTargetDown' && (test.exp_alerts ?? []).length === 0)!;
    const firing = first.find((test) => test.alertname === 'TaskManagerTargetDown' && (test.exp_alerts ?? []).length > 0)!;
    [pending.exp_alerts, firing.exp_alerts] = [firing.exp_alerts, []];
    tests.rule_files = RULE_FILES;
    const temp = tempDir('tm-promtool-');
    try {
      const file = path.join(temp.dir, 'wrong.yml');
      writeFileSync(file, stringify(tests));
      const result = run('test', 'rules', file);
      expect(result.output).toMatch(/FAILED/);
      expect(result.output).toMatch(/alertname: TaskManagerTargetDown, time: 3m/);
      expect(result.output).toMatch(/alertname: TaskManagerTargetDown, time: 4m/);
      expect(result.status).not.toBe(0);
    } finally {
      temp.remove();
    }
  });
});
