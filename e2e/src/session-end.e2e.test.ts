import type { Page } from 'playwright-core';
import { openSession, useBrowser } from './browser.js';
import { addTask, describeInBrowser, openAccountPage, row, signIn, signUp, toastWith } from './app.js';

// A session that ends says why (docs/PRODUCT.md §10.3, §10.10). Two browser profiles are two
// devices of one account: device A changes the password, signs out everywhere or deletes the account; device
// B's next action lands on /login with a banner that says why (and, after a deletion, offers to sign up).

const browser = useBrowser();

const NEW_PASSWORD = 'violet tractor sings at midnight';

/** The sign-in screen's banner that says why the session ended (role alert, not a toast). */
function sessionEndBanner(page: Page, text: string | RegExp) {
  return page.locator('.auth-form__notice[role="alert"]').filter({ hasText: text });
}



/**
 * Device B's next action: ticking its task. The live stream may have brought B to /login already (a stream
 * ended with its session reconnects within seconds, and its refusal says why just the same): then there is
 * nothing left to tick, and the landing is what counts.
 */
async function nextAction(page: Page): Promise<void> {
  const box = row(page, 'Shared task').getByRole('checkbox');
  if (await box.isVisible()) await box.click({ timeout: 2_000 }).catch(() => undefined);
}

/** Two devices signed in to one new account, device B showing its task list with one task. */
async function twoDevices(name: string) {
  const a = await openSession(browser());
  const account = await signUp(a.page, name);
  await addTask(a.page, 'Shared task');
  const b = await openSession(browser());
  await signIn(b.page, account);
  await row(b.page, 'Shared task').waitFor();
  const close = () => Promise.all([a.context.close(), b.context.close()]);
  return { a, b, account, close };
}

describeInBrowser('a session that ended says why', () => {
  it('password changed on device A: device B lands on /login saying so, in every tab, until it signs in with the new password', async () => {
    const { a, b, account, close } = await twoDevices('Changes Password');
    const secondTab = await b.context.newPage();
    await secondTab.goto('/');
    await row(secondTab, 'Shared task').waitFor();

    await openAccountPage(a.page);
    await a.page.getByLabel('Current password').fill(account.password);
    await a.page.getByLabel('New password').fill(NEW_PASSWORD);
    await a.page.getByRole('button', { name: 'Change password' }).click();
    await toastWith(a.page, 'Password changed successfully').waitFor();

    // B's next action: ticking the task. It is refused, and B goes to the sign-in screen with the reason.
    const started = Date.now();
    await nextAction(b.page);
    await b.page.waitForURL('**/login', { timeout: 10_000 });
    const sentence = 'Your password was changed on another device. Sign in with the new password.';
    await sessionEndBanner(b.page, sentence).waitFor();
    console.log(`device B on /login with the reason ${Date.now() - started} ms after its click`);
    // A banner that stays, not a toast that goes.
    expect(await toastWith(b.page, /session has ended|Not signed in|XSRF/).count()).toBe(0);
    await b.page.waitForTimeout(5_000);
    expect(await sessionEndBanner(b.page, sentence).count()).toBe(1);
    // B's other tab followed, with the same banner.
    await secondTab.waitForURL('**/login', { timeout: 10_000 });
    await sessionEndBanner(secondTab, sentence).waitFor();

    // Signing in with the new password: the banner is gone (both tabs go to the list).
    await b.page.getByLabel('Email').fill(account.email);
    await b.page.getByLabel('Password').fill(NEW_PASSWORD);
    await b.page.getByRole('button', { name: 'Sign In' }).click();
    await row(b.page, 'Shared task').waitFor();
    await row(secondTab, 'Shared task').waitFor({ timeout: 10_000 });
    expect(await b.page.locator('.auth-form__notice').count()).toBe(0);
    // Device A stayed signed in.
    await a.page.goto('/');
    await row(a.page, 'Shared task').waitFor();
    await close();
  });

  it('sign out everywhere asks first; confirmed, device B lands on /login with "You were signed out everywhere."', async () => {
    const { a, b, close } = await twoDevices('Everywhere At Once');
    await openAccountPage(a.page);
    await a.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = a.page.getByRole('alertdialog', { name: 'Sign out of all devices?' });
    await dialog.waitFor();
    // Cancel keeps everyone signed in.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await b.page.request.get('/api/user/me')).status()).toBe(200);

    await a.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await a.page.waitForURL('**/login');
    await toastWith(a.page, 'Signed out of all devices').waitFor();

    // B's next action: the window gets the focus back (the list is fetched again), or a tick.
    await b.page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await nextAction(b.page);
    await b.page.waitForURL('**/login', { timeout: 10_000 });
    await sessionEndBanner(b.page, 'You were signed out everywhere.').waitFor();
    await close();
  });

  it('account deleted on device A: device B is told, and offered to sign up instead of signing in', async () => {
    const { a, b, account, close } = await twoDevices('Leaves For Good');
    await openAccountPage(a.page);
    const danger = a.page.getByRole('region', { name: 'Delete account' });
    await danger.getByLabel('Password').fill(account.password);
    await danger.getByRole('button', { name: 'Delete account' }).click();
    await a.page.getByRole('alertdialog').getByRole('button', { name: 'Delete account' }).click();
    await a.page.waitForURL('**/login');

    await nextAction(b.page);
    await b.page.waitForURL('**/login', { timeout: 10_000 });
    const banner = sessionEndBanner(b.page, 'Your account was deleted, with all its tasks.');
    await banner.waitFor();
    expect(await banner.textContent()).not.toMatch(/sign in/i);
    await banner.getByRole('link', { name: 'Create a new account' }).click();
    await b.page.waitForURL('**/signup');
    await b.page.getByRole('heading', { name: 'Create your account', level: 1 }).waitFor();
    await close();
  });

  it('a reload after the session ended elsewhere still says why, once', async () => {
    const { a, b, close } = await twoDevices('Reloads Later');
    await openAccountPage(a.page);
    await a.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await a.page.getByRole('alertdialog').getByRole('button', { name: 'Sign out everywhere' }).click();
    await a.page.waitForURL('**/login');

    // B was not looking: it is opened again later (a restored tab).
    await b.page.reload();
    await b.page.waitForURL('**/login', { timeout: 10_000 });
    await sessionEndBanner(b.page, 'You were signed out everywhere.').waitFor();
    // Told once: reloading the sign-in screen again shows it no more.
    await b.page.reload();
    await b.page.getByRole('heading', { name: 'Welcome back', level: 1 }).waitFor();
    await b.page.waitForTimeout(1_000);
    expect(await b.page.locator('.auth-form__notice').count()).toBe(0);
    await close();
  });

  it('a logout in one tab: the other tab of that browser lands on /login with "You signed out in another tab."', async () => {
    const { page: first, context } = await openSession(browser());
    await signUp(first, 'Two Tabs Again');
    const second = await context.newPage();
    await second.goto('/');
    await second.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();

    await first.getByTitle('Logout').click();
    await first.waitForURL('**/login');
    await second.waitForURL('**/login', { timeout: 10_000 });
    await sessionEndBanner(second, 'You signed out in another tab.').waitFor();
    // The tab that logged out says so in its toast, without the banner.
    await toastWith(first, 'Logged out successfully').waitFor();
    expect(await first.locator('.auth-form__notice').count()).toBe(0);
    await context.close();
  });
});
