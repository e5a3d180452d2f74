import path from 'node:path';
import Database from 'better-sqlite3';
import type { BrowserContext, Page } from 'playwright-core';
import { useOwnApp } from './browser.js';
import { until } from './phone.js';
import { addTask, describeInBrowser, openAccountPage, row, seriousAxeViolations, signIn, signUp, snapshot, toastWith } from './app.js';

// The account page (docs/PRODUCT.md §10.10). This file runs its own app with the embedded stores
// (sessions in SQLite even when REDIS_URL is set, as in CI), so it can read the stores' files afterwards and
// prove the deleted data is gone.

const app = useOwnApp({ web: true, env: { REDIS_URL: '' } });

async function newContext(options: { width?: number; theme?: 'light' | 'dark' } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.browser().newContext({ baseURL: app.stack().url, viewport: { width: options.width ?? 1280, height: 800 } });
  if (options.theme) await context.addInitScript((value) => localStorage.setItem('theme', value), options.theme);
  return { context, page: await context.newPage() };
}



function countRows(file: string, sql: string, id: string): number {
  const db = new Database(path.join(app.stack().dataDir, file), { fileMustExist: true, timeout: 5000 });
  try {
    return (db.prepare(sql).get(id) as { n: number }).n;
  } finally {
    db.close();
  }
}

describeInBrowser('the account page', () => {
  it('changes the password: the other browser is signed out, this one stays, only the new password works', async () => {
    const laptop = await newContext();
    const account = await signUp(laptop.page, 'Grace Hopper');
    await addTask(laptop.page, 'Kept after the change');
    const phone = await newContext({ width: 375 });
    await signIn(phone.page, account);
    await row(phone.page, 'Kept after the change').waitFor();

    await openAccountPage(laptop.page);
    await laptop.page.getByLabel('Current password').fill('not the password');
    await laptop.page.getByLabel('New password').fill('password123');
    await laptop.page.getByText('Strength: Very weak').waitFor();
    await laptop.page.getByLabel('New password').fill('a much better passphrase');
    await laptop.page.getByText(/Strength: (Good|Strong)/).waitFor();
    await laptop.page.getByRole('button', { name: 'Change password' }).click();
    await laptop.page.getByText('The current password is incorrect').waitFor();
    expect(await laptop.page.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');

    await laptop.page.getByLabel('Current password').fill(account.password);
    await laptop.page.getByRole('button', { name: 'Change password' }).click();
    await toastWith(laptop.page, 'Password changed successfully').waitFor();
    // The toast comes first; the form clears once the current user has been checked again with the rotated
    // session (mfe-auth's useChangePassword), which on a busy machine can be a moment later.
    await laptop.page.waitForFunction(() => (document.querySelector<HTMLInputElement>('input[name="currentPassword"]')?.value ?? null) === '');
    expect(await laptop.page.getByLabel('Current password').inputValue()).toBe('');

    // The other browser's next call finds its session ended and goes to /login, which says why.
    await row(phone.page, 'Kept after the change').getByRole('checkbox').click();
    await phone.page.waitForURL('**/login', { timeout: 5000 });
    await phone.page
      .locator('.auth-form__notice[role="alert"]')
      .filter({ hasText: 'Your password was changed on another device. Sign in with the new password.' })
      .waitFor();
    // This browser is still signed in.
    await laptop.page.goto('/');
    await row(laptop.page, 'Kept after the change').waitFor();

    await signIn(phone.page, account);
    await phone.page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await signIn(phone.page, { email: account.email, password: 'a much better passphrase' });
    await row(phone.page, 'Kept after the change').waitFor();
    await Promise.all([laptop.context.close(), phone.context.close()]);
  });

  it('signs out of every device at once', async () => {
    const first = await newContext();
    const account = await signUp(first.page, 'Everywhere');
    const second = await newContext();
    await signIn(second.page, account);
    await second.page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    await openAccountPage(first.page);
    await first.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    // One click is not enough any more: it asks first.
    await first.page.getByRole('alertdialog', { name: 'Sign out of all devices?' }).getByRole('button', { name: 'Sign out everywhere' }).click();
    await first.page.waitForURL('**/login');
    await toastWith(first.page, 'Signed out of all devices').waitFor();
    await second.page.reload();
    await second.page.waitForURL('**/login');
    await Promise.all([first.context.close(), second.context.close()]);
  });

  it('deletes the account after the password and a confirmation: sign-in fails and the tasks are gone from the stores', async () => {
    const { context, page } = await newContext();
    const account = await signUp(page, 'Leaving Soon');
    await addTask(page, 'First of mine');
    await addTask(page, 'Second of mine');
    const userId = await page.evaluate(async () => ((await (await fetch('/api/user/me')).json()) as { user: { _id: string } }).user._id);
    // A task shows as soon as the device keeps it (PRODUCT §10.4); both are in the store once the server took them.
    await until(async () => countRows('todos.sqlite', 'SELECT COUNT(*) AS n FROM todos WHERE user_id = ?', userId), (n) => n === 2);

    await openAccountPage(page);
    await page.getByRole('region', { name: 'Delete account' }).getByLabel('Password').fill(account.password);
    await page.getByRole('region', { name: 'Delete account' }).getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account and all its tasks?' });
    await dialog.getByText('This cannot be undone.').waitFor();
    // Cancel changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(countRows('users.sqlite', 'SELECT COUNT(*) AS n FROM users WHERE id = ?', userId)).toBe(1);

    await page.getByRole('region', { name: 'Delete account' }).getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete account' }).click();
    await page.waitForURL('**/login');
    await toastWith(page, 'Account deleted successfully').waitFor();

    expect(countRows('users.sqlite', 'SELECT COUNT(*) AS n FROM users WHERE id = ?', userId)).toBe(0);
    expect(countRows('todos.sqlite', 'SELECT COUNT(*) AS n FROM todos WHERE user_id = ?', userId)).toBe(0);
    expect(countRows('sessions.sqlite', 'SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?', userId)).toBe(0);
    await signIn(page, account);
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await context.close();
  });

  it('says on the sign-in screen when to try again after repeated wrong passwords', async () => {
    const { context, page } = await newContext({ width: 375 });
    const account = await signUp(page, 'Typo Prone');
    await page.getByTitle('Logout').click();
    await page.waitForURL('**/login');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await signIn(page, { email: account.email, password: `wrong guess ${attempt}` });
      await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    }
    await signIn(page, { email: account.email, password: 'one more guess' });
    await page.getByRole('alert').filter({ hasText: /^Too many attempts\. Try again in \d seconds?\.$/ }).waitFor();
    await snapshot(page, 'login-too-many-attempts-375');
    await page.waitForTimeout(2_100);
    await signIn(page, account);
    await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    await context.close();
  });

  it('looks right and passes axe in both themes, wide and at 375 px, with the menu and the dialog open', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 375]) {
        const { context, page } = await newContext({ width, theme });
        const account = await signUp(page, 'Screen Shot');
        const tag = `account-${theme}-${width}`;
        // The screen has settled once the new-task input holds the focus a sign-up gives it (PRODUCT §10.9).
        await page.waitForFunction(() => document.activeElement?.getAttribute('placeholder') === 'What would you like to accomplish?');
        await page.getByRole('button', { name: 'Account menu' }).click();
        await page
          .getByRole('link', { name: 'Account settings' })
          .waitFor({ timeout: 10_000 })
          .catch(async (error: unknown) => {
            // Say what the page was doing, should the menu not be open.
            const state = await page.evaluate(() => ({
              address: location.href,
              expanded: document.querySelector('[aria-label="Account menu"]')?.getAttribute('aria-expanded'),
              focus: document.activeElement?.outerHTML.slice(0, 200),
            }));
            throw new Error(`the account menu did not open: ${JSON.stringify(state)}; ${String(error)}`);
          });
        await snapshot(page, `${tag}-menu`, { fullPage: false });
        expect(await seriousAxeViolations(page)).toEqual([]);
        await page.keyboard.press('Escape');
        await page.getByRole('link', { name: 'Account settings' }).waitFor({ state: 'detached' });
        await openAccountPage(page);
        await page.getByText(account.email).waitFor();
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.getByLabel('New password').fill('correct horse battery staple');
        await page.getByText(/Strength: /).waitFor();
        await snapshot(page, tag);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await page.getByRole('region', { name: 'Delete account' }).getByLabel('Password').fill('anything at all');
        await page.getByRole('region', { name: 'Delete account' }).getByRole('button', { name: 'Delete account' }).click();
        await page.getByRole('alertdialog').waitFor();
        await snapshot(page, `${tag}-dialog`, { fullPage: false });
        expect(await seriousAxeViolations(page)).toEqual([]);
        await context.close();
      }
    }
    // Four sign-ups and eight axe scans of a long page: about a minute on a busy 2-core machine.
  }, 180_000);
});
