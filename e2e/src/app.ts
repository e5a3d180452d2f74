import { readFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { newUser, type NewUser } from '@tm/test-support';
import type { Page } from 'playwright-core';

/** Unique signup details for one test (the shared helper of @tm/test-support). */
export function newAccount(fullName = 'Ada Lovelace'): NewUser {
  return newUser(fullName);
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
  const input = page.getByPlaceholder('What would you like to accomplish?');
  await input.fill(title);
  await page.getByRole('button', { name: 'Add Task' }).click();
  const rows = page.getByRole('listitem').filter({ hasText: title });
  await rows.first().waitFor();
  // The device's own copy of the add (a temporary id) and the server's task are one task on screen, also when
  // the list is read while the add's answer is on its way (the engine's adopt); should a path remain where the
  // two show together for a moment, they must become one, never stay two.
  await page.waitForFunction(
    (typed) => {
      const ids = Array.from(document.querySelectorAll<HTMLElement>('#root li[data-todo-id]'))
        .filter((item) => item.querySelector('.tasks-item__title')?.textContent === typed)
        .map((item) => item.dataset.todoId ?? '');
      return !(ids.some((id) => id.startsWith('tmp-')) && ids.some((id) => !id.startsWith('tmp-')));
    },
    title,
    { timeout: 10_000 },
  );
  // The row shows as soon as the task is kept on the device, and the input clears with it (PRODUCT §10.2, §10.4).
  await page.waitForFunction(([selector, typed]) => document.querySelector<HTMLInputElement>(selector ?? '')?.value !== typed, ['input[placeholder="What would you like to accomplish?"]', title]);
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
  const run = async (): Promise<AxeViolation[]> => {
    // Colours are judged on a still page: a toast fading in or out is half transparent for a moment, and its
    // contrast then is not the contrast anyone reads. Finite animations end first (infinite ones, a spinner,
    // never do and are not waited for).
    await page.waitForFunction(
      () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
      undefined,
      { timeout: 5_000, polling: 50 },
    );
    return page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
      const result = await axe.run(document, { resultTypes: ['violations'] });
      return result.violations;
    });
  };
  // A toast can start leaving while axe reads the page (its timer ran out mid-run); a real violation is
  // still there on a second run once that animation is over, a passing fade is not.
  let violations = await run();
  if (violations.length > 0) violations = await run();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
}

const SCREENSHOTS = path.join(__dirname, '..', '..', '.test-data', 'screenshots');

/** Saves a screenshot for people to look at (not an assertion). */
export async function snapshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
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

/** The task row with this title. */
export function row(page: Page, title: string) {
  return page.getByRole('listitem').filter({ hasText: title });
}

/**
 * Opens the page again as a first visit of its list would: without the kept screen (docs/PRODUCT.md §10.4),
 * so the rows enter as on a first load (§10.5.2). The key is removed from a page of this origin that is not
 * the app (the app keeps its screen again as it is hidden).
 */
export async function reloadAsFirstLoad(page: Page): Promise<void> {
  const address = page.url();
  await page.goto('/favicon.svg');
  await page.evaluate(() => localStorage.removeItem('tm.kept-screen'));
  await page.goto(address);
}

/** The new-task input. */
export function newTaskInput(page: Page) {
  return page.getByPlaceholder('What would you like to accomplish?');
}

/** The page's XSRF header, read from its cookie, for API calls made with the page's own cookies. */
export async function xsrfHeaders(page: Page): Promise<Record<string, string>> {
  const cookies = await page.context().cookies();
  const token = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
  if (!token) throw new Error('no XSRF-TOKEN cookie: load a page of the app first');
  return { 'X-XSRF-TOKEN': decodeURIComponent(token) };
}

/** Adds tasks through the API with the page's session (fast set-up of long lists), oldest first. */
export async function addTasksViaApi(page: Page, titles: string[]): Promise<void> {
  const headers = await xsrfHeaders(page);
  for (const title of titles) {
    const response = await page.request.post('/api/todo/add-todo', { data: { title }, headers });
    if (response.status() !== 201) throw new Error(`add-todo answered ${response.status()}`);
  }
}

/** The titles the server holds for the page's user, in the server's order. */
export async function serverTitles(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/todo/fetch-todo');
  if (!response.ok()) throw new Error(`fetch-todo answered ${response.status()}`);
  return ((await response.json()) as { todos: { title: string }[] }).todos.map((todo) => todo.title);
}

/** The toast whose text matches: a status, or an alert for an error (PRODUCT §10.9). */
export function toastWith(page: Page, text: string | RegExp) {
  return page.locator('[data-rht-toaster] [role="status"], [data-rht-toaster] [role="alert"]').filter({ hasText: text });
}

/** Holds the page's current-user check (so the loading screen stays) until the returned function is called. */
export async function holdCurrentUserCheck(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/user/me', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** An init script recording every HTMLMediaElement.play() by path, before the real play runs (read by `played`). */
export const RECORD_PLAYS = `
  window.__played = [];
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function () {
    window.__played.push(new URL(this.currentSrc || this.src, location.href).pathname);
    return play.call(this);
  };
`;

/** The sounds the page played so far, by path, in order (needs `RECORD_PLAYS` as an init script). */
export async function played(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __played: string[] }).__played);
}

/** A task as the server answers it. */
export interface ServerTodo {
  _id: string;
  title: string;
  completed: boolean;
  completedAt: string | null;
  isPinned: boolean;
  /** Its due date (docs/PRODUCT.md §10.14); absent when it has none. */
  due?: string;
  /** Its list (docs/PRODUCT.md §10.19); absent in the Inbox. */
  listId?: string;
  createdAt: string;
  updatedAt: string;
}

/** The tasks the server holds for the page's user, in the server's order. */
export async function serverTodos(page: Page): Promise<ServerTodo[]> {
  const response = await page.request.get('/api/todo/fetch-todo');
  if (!response.ok()) throw new Error(`fetch-todo answered ${response.status()}`);
  return ((await response.json()) as { todos: ServerTodo[] }).todos;
}

/** Fills and sends the sign-in form (what follows, the list or a refusal, is the caller's to wait for). */
export async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Opens the account page the way a person does: the header's account menu, then "Account settings". */
export async function openAccountPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('link', { name: 'Account settings' }).click();
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/account');
}

/** One task write the page sent: a command of a sync call (PRODUCT §10.4), or a call alone. */
export interface TaskWrite {
  method: string;
  /** Under /todo, as the call alone would have it: `/todo/update-todo/<id>`. */
  path: string;
  body: unknown;
}

/**
 * Records the task writes the page sends from now on, whether as commands of `POST /api/todo/sync` (the
 * page's sync engine) or as calls of their own; a command sent again (its answer lost) counts once.
 */
export function recordTaskWrites(page: Page): { all: () => TaskWrite[]; count: (method: string, path: string | RegExp) => number } {
  const seen = new Map<string, TaskWrite>();
  let alone = 0;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/todo/sync') {
      const { commands } = JSON.parse(request.postData() ?? '{"commands":[]}') as { commands: (TaskWrite & { id: string })[] };
      for (const { id, method, path, body } of commands) if (!seen.has(id)) seen.set(id, { method, path, body });
    } else if (url.pathname.startsWith('/api/todo/') && request.method() !== 'GET') {
      seen.set(`alone-${(alone += 1)}`, { method: request.method(), path: url.pathname.slice('/api'.length), body: request.postDataJSON() as unknown });
    }
  });
  const all = () => [...seen.values()];
  return {
    all,
    count: (method, path) => all().filter((write) => write.method === method && (typeof path === 'string' ? write.path === path : path.test(write.path))).length,
  };
}

/** The person's calendar day `offset` days from today (this machine's clock), as the API takes it (`YYYY-MM-DD`). */
export function day(offset: number): string {
  const date = new Date();
  date.setDate(date.getDate() + offset);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** A list as the server answers it (docs/PRODUCT.md §10.19). */
export interface ServerList {
  _id: string;
  name: string;
  colour: string;
  order: string;
  archived: boolean;
}

/** The lists the server holds for the page's user, in the person's order (`lists` of GET /todo/fetch-todo). */
export async function serverLists(page: Page): Promise<ServerList[]> {
  const response = await page.request.get('/api/todo/fetch-todo');
  if (!response.ok()) throw new Error(`fetch-todo answered ${response.status()}`);
  return ((await response.json()) as { lists: ServerList[] }).lists;
}

/** Makes a list through the API with the page's session (fast set-up); resolves it as the server made it. */
export async function addListViaApi(page: Page, name: string): Promise<ServerList> {
  const response = await page.request.post('/api/todo/lists', { data: { name }, headers: await xsrfHeaders(page) });
  if (response.status() !== 201) throw new Error(`POST /todo/lists answered ${response.status()}`);
  return ((await response.json()) as { list: ServerList }).list;
}
