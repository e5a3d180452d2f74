import { openSession, useBrowser } from './browser.js';
import { addTasksViaApi, describeInBrowser, seriousAxeViolations, serverTodos, signIn, signUp, snapshot, xsrfHeaders } from './app.js';

//Insights, the third screen, made with `pnpm new:remote` (mfe-insights; docs/PRODUCT.md §10.12).

const browser = useBrowser();

describeInBrowser('the Insights screen (mfe-insights)', () => {
  it('shows completions per day, the streak and the totals, follows another device live, light and dark, wide and narrow', async () => {
    for (const [width, theme] of [
      [1024, 'light'],
      [375, 'dark'],
    ] as const) {
      const { page, context, errors } = await openSession(browser(), { width, height: 800 });
      await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
      const account = await signUp(page, `Insightful ${width}`);
      await addTasksViaApi(page, ['Write the report', 'Call the bank', 'Water the plants', 'Pinned idea']);
      const headers = await xsrfHeaders(page);
      const todos = await serverTodos(page);
      const byTitle = (title: string) => todos.find((todo) => todo.title === title)!;
      for (const title of ['Write the report', 'Call the bank']) {
        await page.request.put(`/api/todo/update-todo/${byTitle(title)._id}`, { data: { updateData: { completed: true } }, headers });
      }
      await page.request.put(`/api/todo/update-todo/${byTitle('Pinned idea')._id}`, { data: { updateData: { isPinned: true } }, headers });

      // Reached from the header, where it declares its place (order 20: after the task list and Today, 10).
      await page.reload();
      const links = page.getByRole('navigation', { name: 'Screens' }).getByRole('link');
      await page.getByRole('link', { name: 'Insights', exact: true }).waitFor();
      expect((await links.allTextContents()).slice(0, 3)).toEqual(['Tasks', 'Today', 'Insights']);
      await page.getByRole('link', { name: 'Insights', exact: true }).click();
      await page.waitForURL('**/insights');
      const region = page.getByRole('region', { name: 'Insights' });
      await region.getByText('Current streak').waitFor();
      const figure = (label: string) => region.locator('.insights-figure', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('.insights-figure__value');
      expect(await figure('Completed').textContent()).toBe('2');
      expect(await figure('Open').textContent()).toBe('2');
      expect(await figure('Pinned').textContent()).toBe('1');
      expect(await figure('Completed this week').textContent()).toBe('2');
      expect(await figure('Current streak').textContent()).toBe('1');
      // 28 bars; today's (the last) drawn as done; the same figures as a table for screen readers.
      expect(await region.locator('.insights-chart__svg rect').count()).toBe(28);
      expect(await region.locator('.insights-chart__svg rect').last().getAttribute('class')).toBe('insights-chart__bar');
      expect(await region.getByRole('table').locator('tbody tr').count()).toBe(28);
      expect(await region.getByRole('table').locator('caption').textContent()).toMatch(/^Tasks completed per day, last 28 days: 2 in all/);
      await snapshot(page, `insights-${width}-${theme}`, { fullPage: true });
      expect(await seriousAxeViolations(page)).toEqual([]);

      // Another device ticks a task: the open screen follows within a second or two, without a reload.
      const phone = await openSession(browser(), { width: 375 });
      await signIn(phone.page, account);
      await phone.page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
      const phoneHeaders = await xsrfHeaders(phone.page);
      await phone.page.request.put(`/api/todo/update-todo/${byTitle('Water the plants')._id}`, { data: { updateData: { completed: true } }, headers: phoneHeaders });
      await page.waitForFunction(() => document.querySelector('.insights-chart__caption')?.textContent?.includes('(3 in all)'), undefined, { timeout: 10_000 });
      expect(await figure('Completed').textContent()).toBe('3');
      expect(await figure('Open').textContent()).toBe('1');
      await phone.context.close();
      expect(errors.filter((text) => !text.includes('status of 401'))).toEqual([]);
      await context.close();
    }
  });
});
