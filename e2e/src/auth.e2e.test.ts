import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openSession } from './browser.js';
import { describeInBrowser, newAccount, seriousAxeViolations, signUp, snapshot } from './app.js';

let browser: Browser;
beforeAll(async () => {
  if (!process.env.E2E_SKIP) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describeInBrowser('routes, loading screen and accounts in Chromium', () => {
  it('sends a signed-out visitor from / and unknown paths to /login', async () => {
    const { page, context } = await openSession(browser);
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
    const { page, context } = await openSession(browser);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/user/me', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login');
    const screen = page.getByRole('status', { name: 'Loading' });
    await screen.waitFor();
    await expectText(page, 'System Ready');
    await expectText(page, 'Initializing application components...');
    const firstCharacter = await page.getByTestId('loading-character').innerText();
    const firstDots = await page.locator('.loading-screen__dots').innerText();
    await page.waitForTimeout(2300);
    expect(await page.getByTestId('loading-character').innerText()).not.toBe(firstCharacter);
    expect(await page.locator('.loading-screen__dots').innerText()).not.toBe(firstDots);
    await snapshot(page, 'loading-screen');
    expect(await seriousAxeViolations(page)).toEqual([]);
    release();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await screen.count()).toBe(0);
    await context.close();
  });

  it('signs a new user up, greets them, and keeps /login and /signup away while signed in', async () => {
    const { page, context, errors } = await openSession(browser);
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
    const { page, context } = await openSession(browser);
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

  it('logs out with the header button and lands on /login', async () => {
    const { page, context } = await openSession(browser);
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
