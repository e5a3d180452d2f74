import { openSession, useBrowser } from './browser.js';
import { addTask, describeInBrowser, played, RECORD_PLAYS, row, seriousAxeViolations, signUp, snapshot } from './app.js';

const browser = useBrowser();

describeInBrowser('the task list in Chromium', () => {
  it('adds, completes, pins and deletes, with sounds, confetti and bottom-left toasts', async () => {
    const { page, context, requests } = await openSession(browser());
    await context.addInitScript(RECORD_PLAYS);
    await signUp(page, 'Ada Lovelace');
    await page.getByText('All tasks conquered!').waitFor();
    await page.getByText('No tasks').waitFor();
    const illustration = page.locator('img[src="/svgs/to-do-list-animate.svg"]');
    await illustration.waitFor();
    expect(await illustration.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await snapshot(page, 'tasks-empty');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await addTask(page, 'Write the analytical engine notes');
    await addTask(page, 'Feed the cat');
    expect(await page.getByPlaceholder('What would you like to accomplish?').inputValue()).toBe('');
    expect(await played(page)).toEqual(['/sounds/added.mp3', '/sounds/added.mp3']);
    expect(requests).toContain('/sounds/added.mp3');
    expect(await page.getByText('All tasks conquered!').count()).toBe(0);

    const toast = page.getByRole('status').filter({ hasText: /added/i }).first();
    await toast.waitFor();
    const box = await toast.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeLessThan(640 - box!.width / 2);
    expect(box!.y).toBeGreaterThan(400);
    expect(box!.width).toBeLessThanOrEqual(350);

    // Complete: the success sound and the confetti overlay, gone after 3 s.
    await row(page, 'Write the analytical engine notes').getByRole('checkbox').check();
    const canvas = page.locator('canvas');
    await canvas.waitFor();
    expect(await canvas.evaluate((el) => getComputedStyle(el.parentElement ?? el).pointerEvents)).toBe('none');
    expect((await played(page)).at(-1)).toBe('/sounds/success.mp3');
    await snapshot(page, 'tasks-confetti');
    await page.waitForTimeout(3300);
    expect(await canvas.count()).toBe(0);
    const title = row(page, 'Write the analytical engine notes').getByText('Write the analytical engine notes');
    expect(await title.evaluate((el) => getComputedStyle(el).textDecorationLine)).toContain('line-through');

    // Un-completing plays nothing.
    const before = (await played(page)).length;
    await row(page, 'Write the analytical engine notes').getByRole('checkbox').uncheck();
    await page.waitForTimeout(300);
    expect((await played(page)).length).toBe(before);

    // Pin: the row moves first and is highlighted.
    await row(page, 'Write the analytical engine notes').getByRole('button', { name: 'Pin “Write the analytical engine notes”' }).click();
    await page.waitForFunction(() => document.querySelector('li')?.textContent?.includes('Write the analytical engine notes'));
    await snapshot(page, 'tasks-pinned');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Persisted: a reload shows the same order and state.
    await page.reload();
    await row(page, 'Feed the cat').waitFor();
    expect((await page.getByRole('listitem').allInnerTexts())[0]).toContain('Write the analytical engine notes');

    await row(page, 'Feed the cat').getByRole('button', { name: 'Delete “Feed the cat”' }).click();
    await row(page, 'Feed the cat').waitFor({ state: 'detached' });
    expect((await played(page)).at(-1)).toBe('/sounds/deleted.mp3');
    await context.close();
  });

  it('puts pin and delete in an overflow menu on a small screen', async () => {
    const { page, context } = await openSession(browser(), { width: 375, height: 740 });
    await signUp(page, 'Small Screen');
    await addTask(page, 'Tiny task');
    expect(await row(page, 'Tiny task').getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    await row(page, 'Tiny task').getByRole('button', { name: /More actions/ }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual([expect.stringMatching(/Edit/), expect.stringMatching(/Details…/), expect.stringMatching(/Pin/), expect.stringMatching(/History/), expect.stringMatching(/Due date…/), expect.stringMatching(/Priority…/), expect.stringMatching(/Labels…/), expect.stringMatching(/Move to…/), expect.stringMatching(/Delete/)]);
    await snapshot(page, 'tasks-small-menu');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await row(page, 'Tiny task').getByRole('button', { name: /More actions/ }).click();
    await page.getByRole('menuitem', { name: /Delete/ }).click();
    await row(page, 'Tiny task').waitFor({ state: 'detached' });
    await context.close();
  });

  it('is usable with the keyboard alone', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Keyboard User');
    const input = page.getByPlaceholder('What would you like to accomplish?');
    await input.focus();
    await page.keyboard.type('Typed task');
    await page.keyboard.press('Enter');
    await row(page, 'Typed task').waitFor();
    await row(page, 'Typed task').getByRole('checkbox').focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[type=checkbox]')?.checked === true);
    const outline = await row(page, 'Typed task').getByRole('checkbox').evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe('none');
    await context.close();
  });
});
