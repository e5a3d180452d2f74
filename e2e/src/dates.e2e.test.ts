import { openSession, useBrowser } from './browser.js';
import { day, describeInBrowser, row, signUp, snapshot, xsrfHeaders } from './app.js';

// Due dates on the task list (docs/PRODUCT.md §10.14): in plain words under the title, overdue in words and
// in the warning colour, read with the checkbox; a due date's changes in the task's History.

const browser = useBrowser();

describeInBrowser('due dates', () => {
  it('shows each row’s due date in words, an overdue one in words and in the warning colour, read with its checkbox', async () => {
    const { page, context } = await openSession(browser(), { width: 375, height: 800 });
    await signUp(page, 'Date Keeper');
    const headers = await xsrfHeaders(page);
    const tasks: [string, string | undefined][] = [
      ['Pay the gas bill', day(-2)],
      ['Water the plants', day(0)],
      ['Renew passport', `${day(1)}T18:30`],
      ['No date here', undefined],
    ];
    for (const [title, due] of tasks) {
      const answer = await page.request.post('/api/todo/add-todo', { data: due ? { title, due } : { title }, headers });
      expect(answer.status()).toBe(201);
    }
    await page.reload();
    await row(page, 'No date here').waitFor();
    const due = (title: string) => row(page, title).locator('.tasks-item__due');
    expect(await due('Pay the gas bill').textContent()).toMatch(/^Overdue: /);
    expect(await due('Water the plants').textContent()).toBe('Due Today');
    expect(await due('Renew passport').textContent()).toMatch(/^Due Tomorrow \d/);
    expect(await due('No date here').count()).toBe(0);
    // In the warning colour, and not in the quiet one of a date still to come.
    const colour = (title: string) => due(title).evaluate((element) => getComputedStyle(element).color);
    expect(await colour('Pay the gas bill')).not.toBe(await colour('Water the plants'));
    // Read with the checkbox (its description), as the completion time is.
    const checkbox = page.getByRole('checkbox', { name: 'Mark “Pay the gas bill” as completed' });
    expect(await checkbox.evaluate((box) => (box as HTMLInputElement).getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)?.textContent).join(' '))).toMatch(/Overdue: /);
    // A completed task is no longer overdue.
    await checkbox.check();
    await page.getByRole('checkbox', { name: 'Mark “Pay the gas bill” as not completed' }).waitFor();
    expect(await due('Pay the gas bill').textContent()).toMatch(/^Due /);
    await snapshot(page, 'due-dates-375', { fullPage: false });
    await context.close();
  });

  it('keeps each due date a task had in its History, in words, with Restore', async () => {
    const { page, context } = await openSession(browser(), { width: 1280, height: 800 });
    await signUp(page, 'Date Changer');
    const headers = await xsrfHeaders(page);
    const added = await page.request.post('/api/todo/add-todo', { data: { title: 'Book flights', due: '2027-04-02' }, headers });
    const { todo } = (await added.json()) as { todo: { _id: string } };
    for (const value of ['2027-04-09T08:15', null]) {
      const answer = await page.request.put(`/api/todo/update-todo/${todo._id}`, { data: { updateData: { due: value } }, headers });
      expect(answer.status()).toBe(200);
    }
    await page.reload();
    await row(page, 'Book flights').waitFor();
    // The device may show its last known copy first (PRODUCT §10.4); the catch-up removes the date.
    await row(page, 'Book flights').locator('.tasks-item__due').waitFor({ state: 'detached' });
    await row(page, 'Book flights').getByRole('button', { name: 'History of “Book flights”' }).click();
    const history = page.getByRole('dialog', { name: 'History of “Book flights”' });
    await history.locator('.tasks-history__what').first().waitFor();
    const what = await history.locator('.tasks-history__what').allTextContents();
    expect(what[0]).toBe('Due date removed');
    // In the browser's locale (en-US here): "Due date changed from Fri, Apr 2, 2027 to Fri, Apr 9, 2027 08:15 AM".
    expect(what[1]).toMatch(/^Due date changed from \D*(Apr 2|2 Apr)\D.* to \D*(Apr 9|9 Apr)\D/);
    // Restore puts the last date back, as an ordinary change.
    await history.getByRole('button', { name: /^Restore due date / }).first().click();
    await row(page, 'Book flights').locator('.tasks-item__due').waitFor();
    expect(await row(page, 'Book flights').locator('.tasks-item__due').textContent()).toMatch(/9.*Apr|Apr.*9/);
    await context.close();
  });
});
