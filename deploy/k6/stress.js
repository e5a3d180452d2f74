/**
 * Stress test: the task-list flow (fetch, add, complete, pin, delete) at an arrival rate that steps up
 * until the system bends, to find the knee, that is the rate after which latency or errors climb fast.
 *
 *   k6 run -e BASE_URL=https://tasks.example.com deploy/k6/stress.js
 *
 * Steps: hold STRESS_START_RATE for STRESS_STEP_DURATION, then STRESS_STEPS times: ramp up by
 * STRESS_STEP_RATE over STRESS_RAMP_DURATION and hold for STRESS_STEP_DURATION. Or give the whole
 * program as STRESS_STAGES="target:duration,…" (e.g. "20:1m,50:1m,100:1m").
 *
 * No password hashing while measuring: setup() signs up STRESS_ACCOUNTS accounts (10 by default, within
 * the default AUTH_RATE_LIMIT of 20/min) and the VUs share their sessions. Every request made at a load
 * step is tagged `stage: rNNNN` (NNNN = its iterations per second, ramps are `ramp`), and the summary
 * shows p95 of the task calls and the error rate per step. The run aborts once errors or latency exceed
 * the limits below: the step before is the knee.
 */
import exec from 'k6/execution';
import { adoptSession, browseTasks, createAccounts, ensureSignedIn, envInteger, envNumber, envString } from './lib.js';

/**
 * @typedef {import('./lib.js').SessionCookies} SessionCookies
 * @typedef {{ sessions: SessionCookies[] }} SetupData
 * @typedef {{ target: number, duration: string, label: string }} Step
 */

const START_RATE = envInteger('STRESS_START_RATE', 10);
const STEP_RATE = envInteger('STRESS_STEP_RATE', 10);
const STEPS = envInteger('STRESS_STEPS', 8);
const STEP_DURATION = envString('STRESS_STEP_DURATION', '1m');
const RAMP_DURATION = envString('STRESS_RAMP_DURATION', '15s');
const STAGES = envString('STRESS_STAGES', '');
const PRE_ALLOCATED_VUS = envInteger('STRESS_VUS', 50);
const MAX_VUS = envInteger('STRESS_MAX_VUS', 500);
const ACCOUNTS = Math.max(1, envInteger('STRESS_ACCOUNTS', 10));
/** Mean pause between the calls of one iteration, seconds (shorter than in load.js). */
const THINK = envNumber('THINK_TIME', 0.1);
/** Abort when the error rate or the p95 of the task calls pass these. */
const MAX_ERROR_RATE = envNumber('STRESS_MAX_ERROR_RATE', 0.05);
const ABORT_P95_MS = envNumber('STRESS_ABORT_P95_MS', 3000);
/** p95 objective of the task calls (reported per endpoint; does not abort). */
const TODO_P95_MS = envNumber('TODO_P95_MS', 300);

/**
 * `30s`, `1m`, `1m30s`, `1h`, `500ms` → milliseconds.
 * @param {string} text
 * @returns {number}
 */
export function durationMs(text) {
  const units = /** @type {{ [unit: string]: number }} */ ({ ms: 1, s: 1000, m: 60000, h: 3600000 });
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  if (!/^(\d+(?:\.\d+)?(ms|s|m|h))+$/.test(text)) throw new Error(`not a duration: "${text}" (use e.g. 30s, 1m, 1m30s)`);
  let total = 0;
  let match = part.exec(text);
  while (match !== null) {
    total += Number(match[1]) * (units[match[2] || ''] || 0);
    match = part.exec(text);
  }
  return total;
}

/** @param {number} rate */
function stepLabel(rate) {
  return `r${String(rate).padStart(4, '0')}`;
}

/**
 * The load program: from STRESS_STAGES when given, else stepped from the STRESS_* numbers.
 * @returns {Step[]}
 */
export function stressPlan() {
  if (STAGES !== '') {
    return STAGES.split(',').map((stage) => {
      const fields = stage.trim().split(':');
      const target = Number(fields[0]);
      const duration = (fields[1] || '').trim();
      if (fields.length !== 2 || !(target >= 0) || Math.floor(target) !== target) {
        throw new Error(`STRESS_STAGES: "${stage}" is not "target:duration" (e.g. "50:1m")`);
      }
      durationMs(duration);
      return { target, duration, label: stepLabel(target) };
    });
  }
  /** @type {Step[]} */
  const plan = [{ target: START_RATE, duration: STEP_DURATION, label: stepLabel(START_RATE) }];
  for (let step = 1; step <= STEPS; step += 1) {
    const target = START_RATE + step * STEP_RATE;
    plan.push({ target, duration: RAMP_DURATION, label: 'ramp' });
    plan.push({ target, duration: STEP_DURATION, label: stepLabel(target) });
  }
  return plan;
}

const PLAN = stressPlan();
/** End of each step, in ms since the scenario started. */
const STEP_ENDS = PLAN.reduce(
  /** @param {number[]} ends @param {Step} step */
  (ends, step) => ends.concat([(ends.length === 0 ? 0 : ends[ends.length - 1] || 0) + durationMs(step.duration)]),
  /** @type {number[]} */ ([]),
);

/** @type {{ [metric: string]: import('k6/options').Threshold[] }} */
const thresholds = {
  // Stop pushing once the system is clearly past the knee.
  http_req_failed: [{ threshold: `rate<${MAX_ERROR_RATE}`, abortOnFail: true, delayAbortEval: '30s' }],
  checks: [{ threshold: `rate>${(1 - MAX_ERROR_RATE).toFixed(4)}`, abortOnFail: true, delayAbortEval: '30s' }],
  todo_req_duration: [{ threshold: `p(95)<${ABORT_P95_MS}`, abortOnFail: true, delayAbortEval: '30s' }],
  // The objectives, per endpoint (reported, never abort).
  'http_req_duration{name:fetch-todo}': [`p(95)<${TODO_P95_MS}`],
  'http_req_duration{name:add-todo}': [`p(95)<${TODO_P95_MS}`],
  'http_req_duration{name:update-todo}': [`p(95)<${TODO_P95_MS}`],
  'http_req_duration{name:delete-todo}': [`p(95)<${TODO_P95_MS}`],
};
// Always-true thresholds on each step's sub-metrics, only so that the end-of-test summary lists p95 and
// error rate per load step (k6 prints sub-metrics only when a threshold names them).
PLAN.forEach((step) => {
  if (step.label === 'ramp') return;
  thresholds[`todo_req_duration{stage:${step.label}}`] = ['p(95)>=0'];
  thresholds[`http_req_failed{stage:${step.label}}`] = ['rate>=0'];
});

/** @type {import('k6/options').Options} */
export const options = {
  setupTimeout: '3m',
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  scenarios: {
    stress: {
      executor: 'ramping-arrival-rate',
      startRate: STAGES === '' ? START_RATE : 0,
      timeUnit: '1s',
      preAllocatedVUs: PRE_ALLOCATED_VUS,
      maxVUs: Math.max(PRE_ALLOCATED_VUS, MAX_VUS),
      stages: PLAN.map((step) => ({ target: step.target, duration: step.duration })),
    },
  },
  thresholds,
};

/**
 * Sign up the accounts whose sessions the VUs share.
 * @returns {SetupData}
 */
export function setup() {
  return { sessions: createAccounts(ACCOUNTS, 'stress', true).sessions };
}

let adopted = false;

/** @param {SetupData} data */
export default function (data) {
  // Tag everything this iteration sends with the load step it runs in.
  const elapsed = Date.now() - exec.scenario.startTime;
  let index = 0;
  while (index < STEP_ENDS.length - 1 && elapsed >= (STEP_ENDS[index] || 0)) index += 1;
  const step = PLAN[index];
  exec.vu.metrics.tags.stage = step === undefined ? 'ramp' : step.label;

  if (!adopted) {
    adopted = true;
    const session = data.sessions[(exec.vu.idInTest - 1) % data.sessions.length];
    if (session !== undefined) adoptSession(session);
  }
  // Signs up a new account only if the shared session was lost (401).
  if (!ensureSignedIn('stress')) return;
  browseTasks(THINK);
}
