import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { useBrowser } from './browser.js';
import { openDevice, signUpOn, type Theme } from './phone.js';
import { describeInBrowser, openAccountPage, row, seriousAxeViolations, serverLists, serverTodos, snapshot, xsrfHeaders, type ServerTodo } from './app.js';

// Import and export (docs/PRODUCT.md §10.23) in the built app, from the account page's "Your data": a real-shaped
// Todoist CSV (e2e/fixtures/Groceries.csv) imported on a phone (375 px, touch, dark) and a desktop (1280 px,
// mouse, light): the preview, the result, then the tasks in their list on `/` with their labels, priority and
// subtasks; the JSON export downloaded and imported into another account; a bad file's problems listed, nothing
// imported.

const browser = useBrowser();
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'Groceries.csv');
const SCREENSHOTS = path.join(__dirname, '..', '..', '.test-data', 'screenshots');

type FullTodo = ServerTodo & { priority?: number; labels?: string[]; note?: string; subtasks?: { title: string; done: boolean }[] };

const yourData = (page: Page) => page.getByRole('region', { name: 'Your data' });

/** Chooses a file with the section's Import… button, as a person does (the file picker answered with `file`). */
async function chooseFile(page: Page, touch: boolean, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const button = yourData(page).getByRole('button', { name: 'Import…' });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), touch ? button.tap() : button.click()]);
  await chooser.setFiles(file);
}

describeInBrowser('import and export', () => {
  it.each<{ device: string; width: number; touch: boolean; theme: Theme }>([
    { device: 'a phone (375 px, dark)', width: 375, touch: true, theme: 'dark' },
    { device: 'a desktop (1280 px, light)', width: 1280, touch: false, theme: 'light' },
  ])('on $device: a Todoist CSV is previewed, imported, and its tasks are in their list with labels, priority and subtasks', async ({ width, touch, theme }) => {
    const { page, context, errors } = await openDevice(browser(), { width, height: 900, touch, theme });
    await signUpOn(page, 'Ivy Importer', touch);
    await openAccountPage(page);
    const section = yourData(page);
    await section.getByRole('button', { name: 'Export as JSON' }).waitFor();

    const dryRun = page.waitForResponse((response) => response.url().endsWith('/api/todo/import') && response.request().method() === 'POST');
    await chooseFile(page, touch, FIXTURE);
    expect((await dryRun).status()).toBe(200);
    const preview = section.getByRole('heading', { name: 'Groceries.csv: 3 tasks in 2 lists' });
    await preview.waitFor();
    expect(await preview.evaluate((heading) => heading === document.activeElement)).toBe(true);
    await section.getByText('New lists: Groceries, Groceries / Weekend.').waitFor();
    await section.getByText(/Line 9, DATE:.*every monday/).waitFor();
    expect(await serverTodos(page)).toEqual([]);

    // The section at this size: nothing wider than the screen, 44 px targets, no serious accessibility problem.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    for (const name of ['Export as JSON', 'Export as CSV', 'Import…', 'Import 3 tasks', 'Cancel']) {
      const box = await section.getByRole('button', { name, exact: true }).boundingBox();
      expect([name, (box?.height ?? 0) >= 44, (box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width]).toEqual([name, true, true]);
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: path.join(SCREENSHOTS, `import-preview-${width}-${theme}.png`) });

    const imported = page.waitForResponse((response) => response.url().endsWith('/api/todo/import') && response.request().method() === 'POST');
    const go = section.getByRole('button', { name: 'Import 3 tasks' });
    await (touch ? go.tap() : go.click());
    expect((await imported).status()).toBe(200);
    await section.getByRole('status').filter({ hasText: 'Imported 3 tasks into 2 lists.' }).waitFor();
    await section.screenshot({ path: path.join(SCREENSHOTS, `import-done-${width}-${theme}.png`) });

    const todos = (await serverTodos(page)) as FullTodo[];
    const milk = todos.find((todo) => todo.title === 'Buy milk');
    expect(milk).toMatchObject({ priority: 1, labels: ['errand'], due: '2026-12-24', note: 'Semi-skimmed, not the oat one\n\nThe bakery on the corner closes at six' });
    expect(milk?.subtasks?.map((item) => item.title)).toEqual(['Eggs', 'Bread']);
    const groceries = (await serverLists(page)).find((list) => list.name === 'Groceries');

    // The list on the task screen: its rows with their labels, priority and subtasks' progress. On the desktop the
    // way a person goes there, within the page (its task screen takes the import from the change feed); on the
    // phone by its address.
    if (touch) await page.goto(`/lists/${groceries?._id ?? 'none'}`);
    else {
      await page.getByRole('link', { name: 'Tasks', exact: true }).click();
      await page.getByRole('navigation', { name: 'Lists' }).getByRole('link', { name: /^Groceries(?! \/)/ }).click();
      await page.waitForURL(`**/lists/${groceries?._id ?? 'none'}`);
    }
    await page.getByRole('heading', { name: 'Groceries', exact: true }).waitFor();
    const milkRow = row(page, 'Buy milk');
    await milkRow.waitFor();
    const text = await milkRow.innerText();
    expect([text.includes('@errand'), text.includes('P1'), text.includes('0/2')]).toEqual([true, true, true]);
    expect(await row(page, 'Call the plumber').innerText()).toContain('@home');
    await snapshot(page, `import-list-${width}-${theme}`, { fullPage: false });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the JSON export downloads and imports into another account as it was; a bad file lists its problems and imports nothing', async () => {
    const { page, context } = await openDevice(browser(), { width: 1280, height: 900, touch: false, theme: 'light' });
    await signUpOn(page, 'Ezra Exporter', false);
    const headers = await xsrfHeaders(page);
    const made = await page.request.post('/api/todo/lists', { data: { name: 'Work', colour: 'teal' }, headers });
    const work = ((await made.json()) as { list: { _id: string } }).list._id;
    for (const data of [
      { title: 'Quarterly report', listId: work, priority: 2, labels: ['office'], note: 'Numbers from finance', subtasks: [{ id: 'a', title: 'Draft', done: true }] },
      { title: 'Water the plants', due: '2026-12-24' },
    ]) {
      expect((await page.request.post('/api/todo/add-todo', { data, headers })).status()).toBe(201);
    }
    await openAccountPage(page);
    const section = yourData(page);
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Export as JSON' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^task-manager-\d{4}-\d{2}-\d{2}\.json$/);
    const content = await readFile(await download.path(), 'utf8');
    const exported = JSON.parse(content) as { format: string; tasks: FullTodo[] };
    expect([exported.format, exported.tasks.length]).toEqual(['task-manager', 2]);

    // Another person imports the file: the same tasks, list, labels, note and subtasks.
    const other = await openDevice(browser(), { width: 1280, height: 900, touch: false });
    await signUpOn(other.page, 'Oona Other', false);
    const answer = await other.page.request.post('/api/todo/import', { data: { fileName: download.suggestedFilename(), content }, headers: await xsrfHeaders(other.page) });
    expect(answer.status()).toBe(200);
    const strip = ({ title, priority, labels, note, subtasks, due }: FullTodo) => ({ title, priority, labels, note, subtasks, due });
    expect(((await serverTodos(other.page)) as FullTodo[]).map(strip)).toEqual(exported.tasks.map(strip));
    expect((await serverLists(other.page)).map((list) => [list.name, list.colour])).toEqual([['Work', 'teal']]);
    await other.context.close();

    // A bad file: its problems listed with their lines, nothing imported.
    const before = await serverTodos(page);
    const bad = ['TYPE,CONTENT,PRIORITY,DATE', 'task,Fine,1,', 'task,Wrong priority,9,', 'task,Wrong day,4,2026-02-30'].join('\n');
    const refused = page.waitForResponse((response) => response.url().endsWith('/api/todo/import'));
    await chooseFile(page, false, { name: 'Broken.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    expect((await refused).status()).toBe(400);
    await section.getByRole('alert').filter({ hasText: 'Broken.csv: The file has 2 problems; nothing was imported.' }).waitFor();
    const problems = section.getByRole('list', { name: 'Problems in the file' }).getByRole('listitem');
    expect(await problems.allInnerTexts()).toEqual([expect.stringMatching(/^Line 3, PRIORITY: /), expect.stringMatching(/^Line 4, DATE: /)]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await section.screenshot({ path: path.join(SCREENSHOTS, 'import-problems-1280-light.png') });
    expect(await serverTodos(page)).toEqual(before);
    await context.close();
  });
});
