import type { Page } from 'playwright-core';
import { useBrowser } from './browser.js';
import { openDevice, signUpOn, until } from './phone.js';
import { describeInBrowser, row, seriousAxeViolations, snapshot, toastWith, xsrfHeaders } from './app.js';

// Saved filters (docs/PRODUCT.md §10.20 "Saved filters") in the built app: saved by name on a desktop (mouse and
// keyboard, light theme), then found under the lists on a phone signed in to the same account (touch only,
// dark theme), opening the filtered list there; deleted with Undo.

const browser = useBrowser();

async function addViaApi(page: Page, task: { title: string; priority?: number; labels?: string[] }): Promise<void> {
  const response = await page.request.post('/api/todo/add-todo', { data: task, headers: await xsrfHeaders(page) });
  if (response.status() !== 201) throw new Error(`add-todo answered ${response.status()}: ${await response.text()}`);
}

const titlesShown = (page: Page) => page.locator('li[data-todo-id] .tasks-item__title').allInnerTexts();

describeInBrowser('saved filters (docs/PRODUCT.md §10.20)', () => {
  it('saved on a desktop, opened from the lists on a phone of the same account, deleted with Undo', async () => {
    const desktop = await openDevice(browser(), { width: 1280, height: 800, touch: false, theme: 'light' });
    const account = await signUpOn(desktop.page, 'Sam Saved', false);
    await addViaApi(desktop.page, { title: 'Buy stamps', priority: 1, labels: ['errand'] });
    await addViaApi(desktop.page, { title: 'Return the books', labels: ['errand'] });
    await addViaApi(desktop.page, { title: 'Write the report', priority: 1 });
    await desktop.page.goto('/?priority=1&label=errand');
    await row(desktop.page, 'Buy stamps').waitFor();
    expect(await titlesShown(desktop.page)).toEqual(['Buy stamps']);

    await desktop.page.getByRole('button', { name: 'Save filter…' }).click();
    const dialog = desktop.page.getByRole('dialog', { name: 'Save filter' });
    const name = dialog.getByRole('textbox', { name: 'Name' });
    expect(await name.inputValue()).toBe('Priority 1, @errand');
    await name.fill('Urgent errands');
    const saved = desktop.page.waitForResponse((response) => response.url().endsWith('/api/todo/saved-filters') && response.request().method() === 'PUT');
    await name.press('Enter');
    expect((await saved).status()).toBe(201);
    await toastWith(desktop.page, 'Filter saved').waitFor();
    const nav = desktop.page.getByRole('navigation', { name: 'Saved filters' });
    const link = nav.getByRole('link', { name: 'Urgent errands' });
    await until(() => link.getAttribute('aria-current'), (current) => current === 'page');
    expect(await seriousAxeViolations(desktop.page)).toEqual([]);
    await snapshot(desktop.page, 'saved-filters-desktop-light', { fullPage: false });

    // Another device of the same person: the phone finds it in the Lists drawer.
    const phone = await openDevice(browser(), { width: 375, height: 812, touch: true, theme: 'dark' });
    await phone.page.goto('/login');
    await phone.page.getByLabel('Email').fill(account.email);
    await phone.page.getByLabel('Password').fill(account.password);
    await phone.page.getByRole('button', { name: 'Sign In' }).tap();
    await row(phone.page, 'Write the report').waitFor();
    await phone.page.getByRole('button', { name: 'Lists' }).tap();
    const drawerLink = phone.page.getByRole('dialog').getByRole('navigation', { name: 'Saved filters' }).getByRole('link', { name: 'Urgent errands' });
    await drawerLink.waitFor();
    await snapshot(phone.page, 'saved-filters-phone-drawer-dark', { fullPage: false });
    expect(await seriousAxeViolations(phone.page)).toEqual([]);
    await drawerLink.tap();
    await until(() => Promise.resolve(new URL(phone.page.url()).search), (search) => search === '?priority=1&label=errand');
    await until(() => titlesShown(phone.page), (titles) => titles.join() === 'Buy stamps');

    // Deleted on the desktop, with Undo: the server has it again.
    const deleted = desktop.page.waitForResponse((response) => response.url().includes('/api/todo/saved-filters/') && response.request().method() === 'DELETE');
    await nav.getByRole('button', { name: 'Delete saved filter “Urgent errands”' }).click();
    expect((await deleted).status()).toBe(200);
    await nav.waitFor({ state: 'detached' });
    const again = desktop.page.waitForResponse((response) => response.url().endsWith('/api/todo/saved-filters') && response.request().method() === 'PUT');
    await desktop.page.getByRole('button', { name: /^Undo deleting “Urgent errands”/ }).click();
    expect((await again).status()).toBe(201);
    await link.waitFor();
    expect(desktop.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await desktop.context.close();
  });
});
