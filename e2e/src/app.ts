import { readFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

let counter = 0;

/** Unique signup details for one test. */
export function newAccount(fullName = 'Ada Lovelace'): { fullName: string; email: string; password: string } {
  counter += 1;
  return { fullName, email: `e2e-${Date.now()}-${process.pid}-${counter}@example.com`, password: 'correct horse battery' };
}

/** Signs a new user up through the real signup screen and waits for the task list. */
export async function signUp(page: Page, fullName = 'Ada Lovelace'): Promise<ReturnType<typeof newAccount>> {
  const account = newAccount(fullName);
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill(account.fullName);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
  return account;
}

export async function addTask(page: Page, title: string): Promise<void> {
  await page.getByPlaceholder('What would you like to accomplish?').fill(title);
  await page.getByRole('button', { name: 'Add Task' }).click();
  await page.getByRole('listitem').filter({ hasText: title }).waitFor();
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Runs axe-core in the page; returns the violations of serious or critical impact. */
export async function seriousAxeViolations(page: Page): Promise<{ id: string; impact: string | null; help: string; targets: string[] }[]> {
  // Evaluated over the DevTools protocol: the app's Content-Security-Policy (rightly) blocks inline scripts.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
}

const SCREENSHOTS = path.join(__dirname, '..', '..', '.test-data', 'screenshots');

/** Saves a screenshot for people to look at (not an assertion). */
export async function snapshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** `describe`, or `describe.skip` with a printed reason when no Chromium is installed. */
export function describeInBrowser(name: string, body: () => void): void {
  const skip = process.env.E2E_SKIP;
  if (skip) {
    console.warn(`Browser tests skipped: ${skip}`);
    // Skipped on purpose and said so: without a Chromium there is no browser to drive.
    describe.skip(name, body); // reason: no Chromium installed (printed above)
  } else {
    describe(name, body);
  }
}
