import { resetLinkOf, waitForMail } from '@tm/test-support';
import type { BrowserContext, Page } from 'playwright-core';
import { useOwnApp } from './browser.js';
import { addTask, describeInBrowser, newAccount, openAccountPage, row, seriousAxeViolations, signIn, signUp, snapshot, toastWith } from './app.js';

// The account page a daily user expects (docs/PRODUCT.md §10.10): a forgotten password reset through the link
// of a mail, a new name and email, the password shown on demand (by touch too), and the auth screens at a
// phone's width. This file runs its own app, so it can read svc-users' local outbox (DATA_DIR/outbox) as a
// person reads their inbox.

const app = useOwnApp({ web: true });
const NEW_PASSWORD = 'marmalade lighthouse on a tuesday';

interface ContextOptions {
  width?: number;
  height?: number;
  theme?: 'light' | 'dark';
  /** A phone: touch only, no mouse (taps). */
  touch?: boolean;
}

async function newContext({ width = 1280, height = 800, theme, touch = false }: ContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.browser().newContext({
    baseURL: app.stack().url,
    viewport: { width, height },
    ...(touch ? { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } : {}),
    // No service worker: it would serve the pages' scripts from its cache, out of page.route's reach.
    serviceWorkers: 'block',
  });
  if (theme) await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
  return { context, page: await context.newPage() };
}

/** The focused element's name (an input's `name`, else its text), as the page says. */
const focused = (page: Page) => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name || document.activeElement?.textContent || '');

/** The size of every control a finger may aim at on the page (inputs, buttons, links), by its name. */
async function targets(page: Page): Promise<{ name: string; width: number; height: number }[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('main input, main button, main a'))
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => {
        const box = element.getBoundingClientRect();
        const name = element.getAttribute('aria-label') || (element as HTMLInputElement).name || element.textContent?.trim() || element.tagName;
        return { name, width: Math.round(box.width), height: Math.round(box.height) };
      }),
  );
}

/** Placeholders of the page's inputs that do not fit their box (measured in the input's own font). */
async function cutPlaceholders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d');
    return Array.from(document.querySelectorAll<HTMLInputElement>('input[placeholder]'))
      .filter((input) => {
        if (!canvas || !input.placeholder) return false;
        const style = getComputedStyle(input);
        canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return canvas.measureText(input.placeholder).width > room;
      })
      .map((input) => input.placeholder);
  });
}

describeInBrowser('a forgotten password, reset through the link of a mail', () => {
  it('forgot → the mail in the outbox → the link → a new password → signed in; every other session ended', async () => {
    const laptop = await newContext();
    const account = await signUp(laptop.page, 'Forgetful Ada');
    await addTask(laptop.page, 'Still mine after the reset');

    const phone = await newContext({ width: 390, height: 844, touch: true });
    const { page } = phone;
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Welcome back', level: 1 }).waitFor();
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'email');
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('link', { name: 'Forgot password?' }).tap();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('heading', { name: 'Forgot your password?', level: 1 }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(account.email);
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('button', { name: 'Send link' }).tap();
    await page.getByText('If an account exists for that address, we sent it a link to choose a new password.').waitFor();

    const mail = await waitForMail(app.stack().dataDir, account.email);
    expect(mail.subject).toBe('Reset your Task Manager password');
    const link = resetLinkOf(mail);
    expect(link.origin).toBe(app.stack().url);
    const token = link.searchParams.get('token') ?? '';

    // Everything the page asks for from here on, and what it says about where it came from.
    const leaks: string[] = [];
    page.on('request', (request) => {
      const referer = request.headers().referer ?? '';
      if (request.url().includes(token) && !request.isNavigationRequest()) leaks.push(`url ${request.url()}`);
      if (referer.includes(token)) leaks.push(`referer of ${request.url()}`);
    });
    const opened = await page.goto(link.toString());
    expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
    await page.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
    await page.waitForFunction(() => !window.location.search.includes('token'));
    expect(new URL(page.url()).pathname).toBe('/reset-password');
    expect(await page.title()).toBe('New password · Task Manager');

    const field = page.getByLabel('New password', { exact: true });
    await field.tap();
    await page.keyboard.type(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Show password' }).tap();
    expect(await field.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Set new password' }).tap();
    await page.getByText('Your password was changed. Sign in with your new password.').waitFor();
    expect(leaks).toEqual([]);

    // The laptop's session ended with the reset: its next action lands on the sign-in screen, which says why.
    await row(laptop.page, 'Still mine after the reset').getByRole('checkbox').click();
    await laptop.page.waitForURL('**/login', { timeout: 10_000 });
    await laptop.page.getByText('Your password was changed on another device. Sign in with the new password.').waitFor();

    // The link works once.
    await page.goto(link.toString());
    await page.getByLabel('New password', { exact: true }).fill('a second try with the same link');
    await page.getByRole('button', { name: 'Set new password' }).tap();
    await page.getByRole('alert').filter({ hasText: 'This link has expired or was already used. Ask for a new one.' }).waitFor();

    // The old password no longer signs in; the new one does, and the tasks are there.
    await signIn(page, account);
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await signIn(page, { email: account.email, password: NEW_PASSWORD });
    await row(page, 'Still mine after the reset').waitFor();
    await Promise.all([laptop.context.close(), phone.context.close()]);
  });
});

describeInBrowser('name and email on the account page', () => {
  it('the page, the header and another tab show the new name and email at once; the new email signs in', async () => {
    const { context, page } = await newContext();
    const account = await signUp(page, 'Grace Brewster');
    const other = await context.newPage();
    await other.goto('/');
    await other.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();

    await openAccountPage(page);
    const form = page.getByRole('region', { name: 'Name and email' });
    await form.getByLabel('Full Name').fill('Grace Hopper');
    const newEmail = newAccount().email;
    await form.getByLabel('Email').fill(newEmail);
    await form.getByLabel('Current password').fill('not my password');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText('The current password is incorrect').waitFor();
    await form.getByLabel('Current password').fill(account.password);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await toastWith(page, 'Your details were saved').waitFor();

    // The page's summary and the header's account menu, at once.
    const summary = page.locator('.account__profile');
    await summary.getByText('Grace Hopper').waitFor();
    await summary.getByText(newEmail).waitFor();
    await page.getByRole('button', { name: 'Account menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Signed in as Grace Hopper' });
    await menu.getByText(newEmail).waitFor();
    await page.keyboard.press('Escape');

    // The other tab follows without a reload.
    await other.getByRole('button', { name: 'Account menu' }).click();
    await other.getByRole('dialog', { name: 'Signed in as Grace Hopper' }).getByText(newEmail).waitFor();

    await page.getByTitle('Logout').click();
    await page.waitForURL('**/login');
    await signIn(page, { email: newEmail, password: account.password });
    await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    await context.close();
  });

  it('turns sounds and celebrations off and on for this browser, on by default', async () => {
    const { context, page } = await newContext({ width: 360, height: 740, touch: true });
    await signUp(page, 'Quiet Person');
    await openAccountPage(page);
    const preferences = page.getByRole('region', { name: 'Preferences' });
    const sounds = preferences.getByRole('switch', { name: 'Sounds' });
    const celebrations = preferences.getByRole('switch', { name: 'Celebrations' });
    expect(await sounds.isChecked()).toBe(true);
    expect(await celebrations.isChecked()).toBe(true);
    await sounds.tap();
    expect(await sounds.isChecked()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('tm.preferences'))).toBe(JSON.stringify({ sounds: false, celebrations: true }));
    const box = await sounds.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    expect(box?.width).toBeGreaterThanOrEqual(44);
    await page.reload();
    expect(await page.getByRole('switch', { name: 'Sounds' }).isChecked()).toBe(false);
    await context.close();
  });
});

describeInBrowser('the auth screens on a phone (360 px, touch)', () => {
  it('show/hide by a tap keeps the field focused and the caret in place; every control is at least 24 px, 44 where there is room', async () => {
    const { context, page } = await newContext({ width: 360, height: 740, touch: true });
    await page.goto('/login');
    const password = page.getByLabel('Password');
    await password.tap();
    await page.keyboard.type('correct horse');
    await password.evaluate((input: HTMLInputElement) => input.setSelectionRange(4, 4));
    const show = page.getByRole('button', { name: 'Show password' });
    const box = await show.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await show.tap();
    expect(await password.getAttribute('type')).toBe('text');
    expect(await focused(page)).toBe('password');
    expect(await password.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd])).toEqual([4, 4]);
    await page.keyboard.type('X');
    expect(await password.inputValue()).toBe('corrXect horse');
    await page.getByRole('button', { name: 'Hide password' }).tap();
    expect(await password.getAttribute('type')).toBe('password');
    expect(await focused(page)).toBe('password');

    for (const route of ['/login', '/signup', '/forgot-password', '/reset-password?token=not-a-real-one']) {
      await page.goto(route);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('main input, main button').first().waitFor();
      const small = (await targets(page)).filter(({ width, height }) => width < 24 || height < 24);
      expect([route, small]).toEqual([route, []]);
      // Fields and buttons get the full 44 px (there is room); links stand on lines of their own, 44 px tall.
      const short = (await targets(page)).filter(({ height }) => height < 44);
      expect([route, short]).toEqual([route, []]);
      expect([route, await cutPlaceholders(page)]).toEqual([route, []]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
    await context.close();
  });

  it('focuses Full Name on the sign-up screen, and the button does not move when the strength hint arrives late', async () => {
    for (const width of [360, 1024]) {
      const { context, page } = await newContext({ width, height: 740 });
      await page.goto('/signup');
      await page.getByRole('heading', { name: 'Create your account', level: 1 }).waitFor();
      await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'fullName');
      // The strength hint's check (a script of its own) arrives 1.5 s late, as on a slow phone network.
      let held = 0;
      await page.route('**/remotes/auth/assets/*.js', async (route) => {
        held += 1;
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      const button = page.getByRole('button', { name: 'Sign Up' });
      const before = await button.boundingBox();
      await page.getByLabel('Full Name').fill('Ada Lovelace');
      await page.getByLabel('Email').fill(newAccount().email);
      await page.getByLabel('Password').click();
      await page.keyboard.type('violet tractor sings at midnight');
      const typed = await button.boundingBox();
      await page.getByText('Strength: Strong').waitFor({ timeout: 15_000 });
      const after = await button.boundingBox();
      expect(held).toBeGreaterThan(0);
      expect([width, typed?.y]).toEqual([width, before?.y]);
      expect([width, after?.y]).toEqual([width, before?.y]);
      await context.close();
    }
  });

  it('looks right and passes axe in both themes at 360 and 1024 px: the pages of a forgotten password and the account page', async () => {
    const owner = await newContext();
    const account = await signUp(owner.page, 'Screen Shot');
    await owner.page.getByTitle('Logout').click();
    await owner.page.waitForURL('**/login');
    await owner.context.close();
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [360, 1024]) {
        const { context, page } = await newContext({ width, height: 800, theme });
        const tag = `account-reset-${theme}-${width}`;
        await page.goto('/forgot-password');
        await page.getByLabel('Email').fill(account.email);
        await snapshot(page, `${tag}-forgot`);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await page.getByRole('button', { name: 'Send link' }).click();
        await page.getByText(/^If an account exists/).waitFor();
        await snapshot(page, `${tag}-forgot-sent`);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await page.goto('/reset-password?token=not-a-real-one');
        await page.getByLabel('New password', { exact: true }).fill('a fine new passphrase');
        await page.getByRole('button', { name: 'Show password' }).click();
        await page.getByText(/Strength: /).waitFor();
        await snapshot(page, `${tag}-reset`);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await page.getByRole('button', { name: 'Set new password' }).click();
        await page.getByRole('alert').filter({ hasText: 'This link has expired or was already used.' }).waitFor();
        expect(await seriousAxeViolations(page)).toEqual([]);
        await signIn(page, account);
        await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
        await openAccountPage(page);
        await page.getByRole('region', { name: 'Name and email' }).getByLabel('Email').fill(`changed-${account.email}`);
        await page.getByRole('region', { name: 'Name and email' }).getByLabel('Current password').waitFor();
        await snapshot(page, `${tag}-account`);
        expect(await seriousAxeViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await context.close();
      }
    }
  }, 240_000);
});
