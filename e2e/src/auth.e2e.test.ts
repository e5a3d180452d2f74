import type { Page } from 'playwright-core';
import { openSession, useBrowser } from './browser.js';
import { describeInBrowser, holdCurrentUserCheck, newAccount, seriousAxeViolations, signUp, snapshot } from './app.js';

const browser = useBrowser();

describeInBrowser('routes, loading screen and accounts in Chromium', () => {
  it('sends a signed-out visitor from / and unknown paths to /login', async () => {
    const { page, context } = await openSession(browser());
    await page.goto('/');
    await page.waitForURL('**/login');
    await page.goto('/no/such/page');
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');
    await snapshot(page, 'login');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('shows the loading screen while the current-user check runs', async () => {
    const { page, context } = await openSession(browser());
    const release = await holdCurrentUserCheck(page);
    await page.goto('/login');
    const screen = page.getByRole('status', { name: 'Loading' });
    await screen.waitFor();
    // While the current-user check has no answer, the card does not claim the system is ready.
    await expectText(page, 'Starting up');
    await expectText(page, 'Connecting to the server...');
    expect(await page.getByText('System Ready').count()).toBe(0);
    const firstCharacter = await page.getByTestId('loading-character').innerText();
    const firstDots = await page.locator('.loading-screen__dots').innerText();
    // A dot every 600 ms (three states, so compare within one cycle), a new character every 2 s.
    await page.waitForTimeout(700);
    expect(await page.locator('.loading-screen__dots').innerText()).not.toBe(firstDots);
    await page.waitForTimeout(1600);
    expect(await page.getByTestId('loading-character').innerText()).not.toBe(firstCharacter);
    await snapshot(page, 'loading-screen');
    expect(await seriousAxeViolations(page)).toEqual([]);
    release();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await screen.count()).toBe(0);
    await context.close();
  });

  it('signs a new user up, greets them, and keeps /login and /signup away while signed in', async () => {
    const { page, context, errors } = await openSession(browser());
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Sign Up' }).waitFor();
    await page.getByRole('link', { name: 'Already have an account? Login' }).waitFor();
    await snapshot(page, 'signup');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await signUp(page, 'Grace Hopper');
    await page.getByText(/Grace Hopper/).first().waitFor();
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/signup');
    await page.waitForURL((url) => url.pathname === '/');
    expect(errors.filter((e) => !/401|Unauthorized/.test(e))).toEqual([]);
    await context.close();
  });

  it('shows the server message in the login banner, and "Signing in..." while pending', async () => {
    const { page, context } = await openSession(browser());
    const account = newAccount();
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.route('**/api/user/login', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Signing in...' }).waitFor();
    const banner = page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).first();
    await banner.waitFor();
    await snapshot(page, 'login-failed');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.waitForURL('**/signup');
    await context.close();
  });

  it('reports a failed login in the banner only, without moving the card', async () => {
    const { page, context } = await openSession(browser(), { width: 375, height: 740 });
    await page.goto('/login');
    const card = page.locator('.auth-card');
    await card.waitFor();
    const before = await card.boundingBox();
    await page.getByLabel('Email').fill(newAccount().email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await page.waitForTimeout(300);
    expect(await page.locator('[data-rht-toaster] [role="status"], [data-rht-toaster] [role="alert"]').count()).toBe(0);
    const after = await card.boundingBox();
    expect(after!.y).toBe(before!.y);
    await context.close();
  });

  it('shows the password rules up front and a refused signup next to the field it concerns', async () => {
    const { page, context } = await openSession(browser());
    const taken = await signUp(page, 'First Owner');
    await page.getByTitle('Logout').click();
    await page.waitForURL('**/login');
    await page.goto('/signup');
    const password = page.getByLabel('Password');
    await page.getByText('Use at least 8 characters.').waitFor();
    expect(await password.getAttribute('aria-describedby')).toBeTruthy();
    await page.getByLabel('Full Name').fill('Second Owner');
    await page.getByLabel('Email').fill(taken.email);
    await password.fill('another good password');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    const email = page.getByLabel('Email');
    const message = page.getByText('An account with this email already exists');
    await message.waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    // The focus is on the field to fix, so a screen reader reads its message.
    expect(await email.evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await email.getAttribute('aria-describedby'))?.split(' ')).toContain(await message.getAttribute('id'));
    // Not a field-prefixed toast: the message is where the person looks.
    expect(await page.locator('[data-rht-toaster]').getByText(/email/i).count()).toBe(0);
    await snapshot(page, 'signup-email-taken');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await email.fill(newAccount().email);
    expect(await message.count()).toBe(0);
    await context.close();
  });

  it('logs out with the header button and lands on /login', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page);
    await page.getByTitle('Logout').click();
    await page.waitForURL('**/login');
    await page.goto('/');
    await page.waitForURL('**/login');
    await context.close();
  });
});

async function expectText(page: Page, text: string): Promise<void> {
  await page.getByText(text, { exact: true }).first().waitFor();
}
