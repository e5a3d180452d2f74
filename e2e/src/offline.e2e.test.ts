import type { BrowserContext, Page } from 'playwright-core';
import { openSession, useBrowser } from './browser.js';
import { until } from './phone.js';
import { addTask, describeInBrowser, newTaskInput, row, serverTodos, signIn, signUp, snapshot, toastWith } from './app.js';

// Working without a network (docs/PRODUCT.md §10.4), in a real Chromium with the app's service worker: every
// action is kept on the device and shown at once, a reload offline shows the list and the waiting changes,
// and the server gets each change once when the network is back; two devices editing one task offline; a
// retried add whose answer was lost; signing out with changes waiting; nothing left on the device after.

const browser = useBrowser();

/** The quiet sync line above the list. */
const syncLine = (page: Page) => page.locator('.tasks-sync__summary');

/** The numbered changes of the user's feed after `after` (what the server applied, once each). */
async function changesAfter(page: Page, after: string): Promise<{ saved: { title: string }[]; removed: string[] }[]> {
  const answer = await page.request.get(`/api/todo/changes?after=${after}`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { changes: { saved: { title: string }[]; removed: string[] }[] }).changes;
}

async function feedCursor(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/todo/fetch-todo')).json()) as { cursor: string }).cursor;
}

/** A second visit with the service worker in control, so the app's files and catalog are kept for offline starts. */
async function openWithServiceWorker(page: Page): Promise<void> {
  await page.reload();
  await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
}

/** Renames a task in its row's title editor: its Edit (on a phone in More actions: a tap on the title opens its details, §10.21). */
async function rename(page: Page, from: string, to: string): Promise<void> {
  if ((page.viewportSize()?.width ?? 1280) <= 640) {
    await row(page, from).getByRole('button', { name: `More actions for “${from}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
  } else await row(page, from).getByRole('button', { name: `Edit “${from}` }).click();
  const field = page.getByRole('textbox', { name: /^Edit “/ });
  await field.fill(to);
  await field.press('Enter');
  await row(page, to).waitFor();
}

/** Holds the task screen's scripts until the returned function is called (the page's HTML and styles pass). */
async function holdTaskScripts(page: Page): Promise<() => Promise<void>> {
  const pattern = /\/remotes\/tasks\/.*\.js$/;
  let open: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (open = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue().catch(() => undefined);
  });
  return async () => {
    open();
    await page.unroute(pattern);
  };
}

async function goOffline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await page.getByRole('status').filter({ hasText: "You're offline." }).waitFor({ timeout: 5000 });
}

describeInBrowser('working offline', () => {
  it('keeps an add, an edit, a tick, a pin, a delete and an Undo on the device, through a reload offline, and the server gets each once when back', async () => {
    const { page, context } = await openSession(browser(), { serviceWorkers: 'allow', width: 375, height: 800 });
    await signUp(page, 'Train Commuter');
    for (const title of ['Buy milk', 'Call mum', 'Water plants']) await addTask(page, title);
    await openWithServiceWorker(page);
    await syncLine(page).filter({ hasText: 'All changes synced.' }).waitFor();
    const before = await feedCursor(page);

    await goOffline(context, page);
    await newTaskInput(page).fill('Written on the train');
    await newTaskInput(page).press('Enter');
    await row(page, 'Written on the train').waitFor();
    expect(await newTaskInput(page).inputValue()).toBe('');
    // Its history: none yet (the server has not got the task), said without asking it.
    await row(page, 'Written on the train').getByRole('button', { name: /More actions/ }).click();
    await page.getByRole('menuitem', { name: 'History' }).click();
    const history = page.getByRole('dialog', { name: 'History of “Written on the train”' });
    await history.getByText('No history yet: this task is waiting on this device to be saved.').waitFor();
    await history.getByRole('button', { name: 'Close' }).click();
    await history.waitFor({ state: 'detached' });
    await rename(page, 'Water plants', 'Water the plants');
    await row(page, 'Buy milk').getByRole('checkbox').check();
    await row(page, 'Call mum').getByRole('button', { name: /More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Pin' }).click();
    // A delete, then its Undo while it still waits on the device: it is simply taken back.
    await row(page, 'Written on the train').getByRole('button', { name: /More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await row(page, 'Written on the train').waitFor({ state: 'detached' });
    await toastWith(page, '“Written on the train”').getByRole('button', { name: /^Undo/ }).click();
    await row(page, 'Written on the train').waitFor();
    await syncLine(page).filter({ hasText: /^4 changes waiting to sync, the oldest from just now\. You're offline/ }).waitFor();
    await snapshot(page, 'offline-waiting-375', { fullPage: false });
    // Nothing reached the server.
    expect(await changesAfter(page, before)).toEqual([]);

    // A reload while offline: the list and the waiting changes are still there.
    await page.reload();
    await row(page, 'Written on the train')
      .waitFor()
      .catch(async (error: unknown) => {
        // What the page showed instead, for whoever reads a failed run.
        await snapshot(page, 'offline-reload-failed-375', { fullPage: false });
        const shown = await page.evaluate(() => ({ url: location.href, controlled: navigator.serviceWorker?.controller !== null, text: document.body.innerText.slice(0, 400) }));
        console.warn(`offline reload showed no rows: ${JSON.stringify(shown)}`);
        throw error;
      });
    await syncLine(page).filter({ hasText: /^4 changes waiting to sync/ }).waitFor();
    expect(await row(page, 'Buy milk').getByRole('checkbox').isChecked()).toBe(true);
    expect(await row(page, 'Water the plants').count()).toBe(1);
    await snapshot(page, 'offline-reloaded-375', { fullPage: false });

    await context.setOffline(false);
    await syncLine(page).filter({ hasText: 'All changes synced.' }).waitFor({ timeout: 15_000 });
    // Each change once, in the order made: the add, the edit, the tick, the pin (the delete was taken back).
    const applied = await changesAfter(page, before);
    expect(applied.map((change) => change.saved.map((todo) => todo.title))).toEqual([['Written on the train'], ['Water the plants'], ['Buy milk'], ['Call mum']]);
    const server = await serverTodos(page);
    expect(server.map(({ title, completed, isPinned }) => ({ title, completed, isPinned }))).toEqual([
      { title: 'Call mum', completed: false, isPinned: true },
      { title: 'Written on the train', completed: false, isPinned: false },
      { title: 'Water the plants', completed: false, isPinned: false },
      { title: 'Buy milk', completed: true, isPinned: false },
    ]);
    await context.close();
  });

  it('two devices offline: different fields of one task both stand; the same field keeps the later, and the earlier is restorable from the history', async () => {
    const phone = await openSession(browser(), { width: 375 });
    const account = await signUp(phone.page, 'Two Devices');
    await addTask(phone.page, 'Plan trip');
    const laptop = await openSession(browser());
    await signIn(laptop.page, account);
    await row(laptop.page, 'Plan trip').waitFor();
    // A person's first press on the page fetches the editor's code (off the first load), before the train's tunnel.
    await laptop.page.getByRole('heading', { name: 'Task Manager', level: 1 }).click();
    await laptop.page.waitForLoadState('networkidle');

    // Different fields: the phone renames, the laptop pins, both offline.
    await goOffline(phone.context, phone.page);
    await goOffline(laptop.context, laptop.page);
    await rename(phone.page, 'Plan trip', 'Plan trip to Rome');
    await row(laptop.page, 'Plan trip').getByRole('button', { name: /^Pin “/ }).click();
    await phone.context.setOffline(false);
    await syncLine(phone.page).filter({ hasText: 'All changes synced.' }).waitFor({ timeout: 15_000 });
    await laptop.context.setOffline(false);
    await syncLine(laptop.page).filter({ hasText: 'All changes synced.' }).waitFor({ timeout: 15_000 });
    await until(() => serverTodos(laptop.page), (todos) => todos[0]?.title === 'Plan trip to Rome' && todos[0].isPinned);
    for (const page of [phone.page, laptop.page]) await row(page, 'Plan trip to Rome').waitFor();

    // The same field: the phone's title reaches the server first, the laptop's later wins.
    await goOffline(phone.context, phone.page);
    await goOffline(laptop.context, laptop.page);
    await rename(phone.page, 'Plan trip to Rome', 'Rome in May');
    await rename(laptop.page, 'Plan trip to Rome', 'Oslo in June');
    await phone.context.setOffline(false);
    await syncLine(phone.page).filter({ hasText: 'All changes synced.' }).waitFor({ timeout: 15_000 });
    await laptop.context.setOffline(false);
    await syncLine(laptop.page).filter({ hasText: 'All changes synced.' }).waitFor({ timeout: 15_000 });
    await until(() => serverTodos(laptop.page), (todos) => todos[0]?.title === 'Oslo in June');
    await row(phone.page, 'Oslo in June').waitFor({ timeout: 10_000 });

    // The phone's title is in the task's history, marked, and one click brings it back.
    await row(phone.page, 'Oslo in June').getByRole('button', { name: /More actions/ }).click();
    await phone.page.getByRole('menuitem', { name: 'History' }).click();
    const dialog = phone.page.getByRole('dialog', { name: 'History of “Oslo in June”' });
    await dialog.getByText('Changed on two devices').waitFor();
    await snapshot(phone.page, 'offline-conflict-history-375', { fullPage: false });
    await dialog.getByRole('button', { name: 'Restore title “Rome in May”' }).click();
    await until(() => serverTodos(phone.page), (todos) => todos[0]?.title === 'Rome in May');
    await row(laptop.page, 'Rome in May').waitFor({ timeout: 10_000 });
    await phone.context.close();
    await laptop.context.close();
  });

  it('a change to a task deleted on another device says so, and restores the task with the change', async () => {
    const phone = await openSession(browser(), { width: 375 });
    const account = await signUp(phone.page, 'Deleted Elsewhere');
    await addTask(phone.page, 'Book the hotel');
    await phone.page.waitForLoadState('networkidle');
    const laptop = await openSession(browser());
    await signIn(laptop.page, account);
    await row(laptop.page, 'Book the hotel').waitFor();

    await goOffline(phone.context, phone.page);
    await rename(phone.page, 'Book the hotel', 'Book the hotel in Rome');
    await row(laptop.page, 'Book the hotel').getByRole('button', { name: /^Delete “/ }).click();
    await until(() => serverTodos(laptop.page), (todos) => todos.length === 0);
    await phone.context.setOffline(false);
    const refusal = phone.page.getByRole('alert').filter({ hasText: 'The task was deleted on another device.' });
    await refusal.waitFor({ timeout: 15_000 });
    expect(await refusal.textContent()).toContain('Renaming a task to “Book the hotel in Rome”');
    await snapshot(phone.page, 'offline-deleted-elsewhere-375', { fullPage: false });
    await refusal.getByRole('button', { name: 'Restore with my change' }).click();
    await until(() => serverTodos(phone.page), (todos) => todos[0]?.title === 'Book the hotel in Rome');
    await row(laptop.page, 'Book the hotel in Rome').waitFor({ timeout: 10_000 });
    await refusal.waitFor({ state: 'detached' });
    await phone.context.close();
    await laptop.context.close();
  });

  it('an add whose answer was lost on the way back is sent again and makes one task', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Lost Answer');
    let cut = 0;
    // The first sync call reaches the server, but its answer never reaches the page.
    await page.route('**/api/todo/sync', async (route) => {
      if (cut > 0) return route.continue();
      cut += 1;
      await route.fetch();
      return route.abort('connectionreset');
    });
    await addTask(page, 'Only once');
    await syncLine(page).filter({ hasText: /^1 change waiting to sync/ }).waitFor();
    await syncLine(page).filter({ hasText: 'All changes synced.' }).waitFor({ timeout: 15_000 });
    expect((await serverTodos(page)).map((todo) => todo.title)).toEqual(['Only once']);
    expect(await row(page, 'Only once').count()).toBe(1);
    await context.close();
  });

  it('asks before a sign-out loses changes still waiting, and leaves nothing of the person on the device after it', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Careful Leaver');
    await addTask(page, 'Keep me');
    // The server takes no sync calls for now: the tick waits.
    await page.route('**/api/todo/sync', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down","code":"SERVICE.UNAVAILABLE"}' }));
    await row(page, 'Keep me').getByRole('checkbox').check();
    await syncLine(page).filter({ hasText: /^1 change waiting to sync/ }).waitFor();

    await page.getByTitle('Logout').click();
    const question = page.getByRole('alertdialog', { name: 'Sign out?' });
    await question.waitFor();
    expect(await question.textContent()).toContain('1 change has not synced yet and will be lost.');
    await question.getByRole('button', { name: 'Cancel' }).click();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name))).toEqual(expect.arrayContaining([expect.stringMatching(/^tm-sync-user-/)]));

    await page.getByTitle('Logout').click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    await until(
      () =>
        page.evaluate(async () => ({
          databases: (await indexedDB.databases()).map((db) => db.name).filter((name) => name?.startsWith('tm-sync-user-')),
          user: localStorage.getItem('tm.device-user'),
          screen: localStorage.getItem('tm.kept-screen'),
        })),
      (kept) => kept.databases.length === 0 && kept.user === null && kept.screen === null,
    );
    await context.close();
  });

  it('paints the kept list at once on a return visit, before the app has arrived, then hands over to the app; never for another person, never unstyled', async () => {
    const { page, context } = await openSession(browser(), { width: 375, height: 740 });
    await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signUp(page, 'Quick Returner');
    for (const title of ['Book the dentist', 'Renew the passport', 'Water plants']) await addTask(page, title);
    await row(page, 'Water plants').getByRole('checkbox').check();
    await syncLine(page).filter({ hasText: 'All changes synced.' }).waitFor();
    const kept = () => page.evaluate(() => JSON.parse(localStorage.getItem('tm.kept-screen') ?? 'null') as { user: string; path: string; html: string; css: string[] } | null);
    // The page keeps itself a moment after its last change.
    const record = await until(kept, (value) => value !== null && value.html.includes('Water plants'));
    expect(record!.path).toBe('/');
    expect(record!.html).not.toMatch(/ id="|data-todo-id/);

    // The task screen's scripts held back: what shows is the kept screen alone, painted by the page's HTML.
    let release = await holdTaskScripts(page);
    await page.reload({ waitUntil: 'domcontentloaded' });
    const screen = page.locator('.kept-screen');
    await screen.waitFor();
    const shown = await screen.evaluate((element) => ({
      text: element.textContent,
      inert: element.hasAttribute('inert'),
      hidden: element.getAttribute('aria-hidden'),
      ticked: Array.from(element.querySelectorAll('input[type="checkbox"]')).map((box) => (box as HTMLInputElement).checked),
      rootHidden: getComputedStyle(document.getElementById('root')!).visibility,
    }));
    expect(shown).toMatchObject({ inert: true, hidden: 'true', rootHidden: 'hidden' });
    expect(shown.text).toContain('Showing the tasks kept on this device.');
    for (const title of ['Book the dentist', 'Renew the passport', 'Water plants']) expect(shown.text).toContain(title);
    expect(shown.ticked.filter(Boolean)).toHaveLength(1);
    // A picture only: nothing in it is a task to a test or a screen reader.
    expect(await page.locator('li[data-todo-id]').count()).toBe(0);
    await snapshot(page, 'kept-screen-375-dark', { fullPage: false });
    await release();
    await row(page, 'Renew the passport').waitFor();
    await screen.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-kept-screen'))).toBe(false);

    // Not shown (the scripts held again, so only the page's HTML decides): a style sheet gone since (a
    // release), which would leave the copy unstyled; another person's kept screen at this very address.
    const plants: ((value: { user: string; html: string; css: string[] }) => object)[] = [
      (value) => ({ ...value, css: [...value.css, '/assets/gone-since.css'] }),
      (value) => ({ ...value, user: 'someone-else' }),
    ];
    for (const plant of plants) {
      const value = await until(kept, (found) => found !== null);
      // Written from a page of this origin that is not the app: the app keeps itself when it is hidden.
      await page.goto('/favicon.svg');
      await page.evaluate((changed) => localStorage.setItem('tm.kept-screen', JSON.stringify(changed)), plant(value!));
      release = await holdTaskScripts(page);
      await page.goto('/', { waitUntil: 'domcontentloaded' });
      expect(await page.evaluate(() => ({ screens: document.querySelectorAll('.kept-screen').length, hidden: document.documentElement.hasAttribute('data-kept-screen') }))).toEqual({ screens: 0, hidden: false });
      await release();
      await row(page, 'Renew the passport').waitFor();
    }
    await context.close();
  });
});
