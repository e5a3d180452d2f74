import type { Page } from 'playwright-core';
import { openSession, useBrowser } from './browser.js';
import { addTask, addTasksViaApi, describeInBrowser, holdCurrentUserCheck, newAccount, newTaskInput, row, seriousAxeViolations, signUp, snapshot } from './app.js';

// Accessibility and polish (docs/PRODUCT.md §10.9).

const browser = useBrowser();

async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return element?.getAttribute('aria-label') ?? element?.getAttribute('placeholder') ?? element?.tagName ?? '';
  });
}

describeInBrowser('accessibility and polish in Chromium', () => {
  it('names the row controls with the task title, with tooltips, and moves the focus sensibly after a delete', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Focus Keeper');
    // Signed up: the focus waits in the new-task input.
    expect(await focusedName(page)).toBe('What would you like to accomplish?');
    await addTasksViaApi(page, ['Buy oat milk', 'Call mom', 'File taxes']);
    await page.reload();
    await row(page, 'Buy oat milk').waitFor();
    await page.waitForTimeout(1200);
    const remove = row(page, 'Call mom').getByRole('button', { name: 'Delete “Call mom”' });
    expect(await remove.getAttribute('title')).toBe('Delete “Call mom”');
    const pin = row(page, 'Call mom').getByRole('button', { name: 'Pin “Call mom”' });
    expect(await pin.getAttribute('title')).toBe('Pin “Call mom”');

    // Order: File taxes, Call mom, Buy oat milk. Deleting the middle one focuses the next row.
    await remove.click();
    await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.getAttribute('aria-label')?.includes('Buy oat milk'));
    // The last row: the previous one takes the focus.
    await row(page, 'Buy oat milk').getByRole('button', { name: 'Delete “Buy oat milk”' }).click();
    await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.getAttribute('aria-label')?.includes('File taxes'));
    // The only row: the input takes it.
    await row(page, 'File taxes').getByRole('button', { name: 'Delete “File taxes”' }).click();
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.placeholder === 'What would you like to accomplish?');
    await context.close();
  });

  it('focuses the new-task input after login, and names every route in the page title', async () => {
    const { page, context } = await openSession(browser());
    const account = await signUp(page, 'Title Reader');
    await page.waitForFunction((title) => document.title === title, 'Tasks · Task Manager');
    await page.getByTitle('Logout').click();
    await page.waitForURL('**/login');
    await page.waitForFunction((title) => document.title === title, 'Sign in · Task Manager');
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.waitForURL('**/signup');
    await page.waitForFunction((title) => document.title === title, 'Create account · Task Manager');
    await page.getByRole('link', { name: 'Already have an account? Login' }).click();
    // The sign-in form, not the sign-up form it replaces (both have an Email field).
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.placeholder === 'What would you like to accomplish?');
    await context.close();
  });

  it('lays out right-to-left titles by their own direction and shows one pinned mark per row', async () => {
    const { page, context } = await openSession(browser(), { width: 375, height: 740 });
    await signUp(page, 'Polyglot');
    await addTask(page, 'קנה חלב שיבולת שועל');
    await addTask(page, 'اشترِ حليب الشوفان');
    const hebrew = row(page, 'קנה חלב').locator('.tasks-item__title');
    expect(await hebrew.getAttribute('dir')).toBe('auto');
    expect(await hebrew.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await newTaskInput(page).getAttribute('dir')).toBe('auto');

    await row(page, 'קנה חלב').getByRole('button', { name: /More actions/ }).click();
    await page.getByRole('menuitem', { name: /Pin/ }).click();
    await page.waitForFunction(() => document.querySelector('li[data-todo-id]')?.classList.contains('tasks-item--pinned'));
    expect(await row(page, 'קנה חלב').locator('svg path[d^="M12 17v5"]').count()).toBe(1);
    // At 375 × 740 the first task is on screen without scrolling.
    const first = await page.locator('li[data-todo-id]').first().boundingBox();
    expect(first!.y + first!.height).toBeLessThanOrEqual(740);
    await snapshot(page, 'tasks-rtl-small');

    const wide = await openSession(browser());
    await wide.context.addCookies(await context.cookies());
    await wide.page.goto('/');
    await row(wide.page, 'קנה חלב').waitFor();
    await wide.page.waitForTimeout(1000);
    // Wide: the pressed pin button is the one mark.
    expect(await row(wide.page, 'קנה חלב').locator('svg path[d^="M12 17v5"]').count()).toBe(1);
    expect(await row(wide.page, 'קנה חלב').getByRole('button', { name: /^Unpin/ }).getAttribute('aria-pressed')).toBe('true');
    await wide.context.close();
    await context.close();
  });

  it('replaces the confetti with a still cue under reduced motion', async () => {
    const { page, context } = await openSession(browser(), { reducedMotion: 'reduce' });
    await signUp(page, 'Calm Completer');
    await addTask(page, 'Quiet task');
    await row(page, 'Quiet task').getByRole('checkbox').check();
    const cue = page.getByTestId('success-cue');
    await cue.waitFor();
    expect(await page.locator('canvas').count()).toBe(0);
    expect(await cue.evaluate((el) => getComputedStyle(el).pointerEvents)).toBe('none');
    await snapshot(page, 'tasks-reduced-motion-cue');
    await cue.waitFor({ state: 'detached', timeout: 10_000 });
    await context.close();
  });

  it('draws the loading characters as pictures that need no emoji font', async () => {
    const { page, context } = await openSession(browser());
    const release = await holdCurrentUserCheck(page);
    await page.goto('/login');
    const character = page.getByTestId('loading-character');
    await character.waitFor();
    expect(await character.locator('svg').count()).toBeGreaterThan(0);
    const box = await character.locator('svg').first().boundingBox();
    expect(box!.width).toBeGreaterThan(32);
    release();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await context.close();
  });

  it('passes axe on every screen, in both themes, wide and at 375 px', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 375]) {
        const { page, context } = await openSession(browser(), { width, height: width === 375 ? 740 : 800 });
        await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
        const tag = `${theme}-${width}`;
        await page.goto('/login');
        await page.getByRole('button', { name: 'Sign In' }).waitFor();
        await page.getByLabel('Email').fill(newAccount().email);
        await page.getByLabel('Password').fill('not the password');
        await page.getByRole('button', { name: 'Sign In' }).click();
        await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
        expect({ screen: `login ${tag}`, violations: await seriousAxeViolations(page) }).toEqual({ screen: `login ${tag}`, violations: [] });
        await page.goto('/signup');
        await page.getByRole('button', { name: 'Sign Up' }).waitFor();
        expect({ screen: `signup ${tag}`, violations: await seriousAxeViolations(page) }).toEqual({ screen: `signup ${tag}`, violations: [] });
        await signUp(page, 'Axe Runner');
        await addTask(page, 'Checked by axe');
        await addTask(page, 'Second by axe');
        await row(page, 'Checked by axe').getByRole('checkbox').check();
        await page.waitForTimeout(3500);
        await snapshot(page, `tasks-${tag}`);
        expect({ screen: `tasks ${tag}`, violations: await seriousAxeViolations(page) }).toEqual({ screen: `tasks ${tag}`, violations: [] });
        await context.setOffline(true);
        await page.getByRole('status').filter({ hasText: "You're offline." }).waitFor();
        expect({ screen: `offline ${tag}`, violations: await seriousAxeViolations(page) }).toEqual({ screen: `offline ${tag}`, violations: [] });
        await snapshot(page, `offline-${tag}`);
        await context.close();
      }
    }
  }, 150_000); // four sessions (two themes, two widths), each scanning every screen
});
