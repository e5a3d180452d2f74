import type { Page } from 'playwright-core';
import { baseUrl, useBrowser } from './browser.js';
import { openDevice, signUpOn, until } from './phone.js';
import { addTasksViaApi, describeInBrowser, holdCurrentUserCheck, newTaskInput, row, seriousAxeViolations, snapshot, toastWith, xsrfHeaders } from './app.js';

// The shell on a phone (docs/PRODUCT.md §2 Header and Notifications, §4 Toasts, §10.3, §10.9): toasts that
// leave on time on a touch screen and never cover a control in view, a header whose buttons keep one row at
// 360 px and stay out of the way while typing, the focus after a navigation, the loading screen as screen
// readers hear it, and a logout that asks before losing text being written. Touch pages are touch only:
// every press is a tap, so no mouse ever moved on them.

const browser = useBrowser();

/** The toasts on screen now, by their words. */
function shownToasts(page: Page): Promise<string[]> {
  return page.locator('[data-rht-toaster] .platform-toast').allInnerTexts();
}

const titles = (count: number) => Array.from({ length: count }, (_, index) => `Errand ${String(index + 1).padStart(2, '0')}`);

describeInBrowser('the shell on a phone', () => {
  it('lets toasts go on time on a touch screen, after taps on Undo, on a toast and on the list', async () => {
    const { page, context, errors } = await openDevice(browser());
    await signUpOn(page, 'Touch Toasts');
    await addTasksViaApi(page, ['Water the plants', 'Call the plumber', 'Buy oat milk']);
    await page.reload();
    await row(page, 'Buy oat milk').waitFor();

    // Delete through the row's menu, then Undo in its toast: taps on the toasts' area, never a "leave".
    await row(page, 'Buy oat milk').getByRole('button', { name: /^More actions/ }).tap();
    await page.getByRole('menuitem', { name: 'Delete' }).tap();
    await row(page, 'Buy oat milk').waitFor({ state: 'detached' });
    await toastWith(page, '“Buy oat milk”').getByRole('button', { name: /^Undo/ }).tap();
    await row(page, 'Buy oat milk').waitFor();
    // The success toast of the restore (2 s, PRODUCT §9) shows where the finger was, and leaves on time.
    const restored = toastWith(page, /restored/i);
    await restored.waitFor();
    const shownAt = Date.now();
    await restored.waitFor({ state: 'detached', timeout: 5_000 });
    expect(Date.now() - shownAt).toBeLessThan(3_000);

    // A tap on a toast itself, then on the list: every toast still leaves within its time (5 s at most, an Undo).
    await row(page, 'Call the plumber').getByRole('checkbox').tap();
    await until(() => shownToasts(page), (shown) => shown.length > 0, 5_000);
    await page.locator('[data-rht-toaster] .platform-toast').first().tap({ position: { x: 8, y: 8 } });
    await row(page, 'Water the plants').getByRole('checkbox').tap();
    const lastTap = Date.now();
    await until(() => shownToasts(page), (shown) => shown.length === 0, 9_000);
    // The newest toast is an Undo (5 s after the finger left it) or a success (2 s): never more, never piled up.
    expect(Date.now() - lastTap).toBeLessThan(7_500);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('holds the toasts while a mouse is over them, and lets them go when it leaves (a desktop)', async () => {
    const { page, context } = await openDevice(browser(), { width: 1024, height: 700, touch: false });
    await signUpOn(page, 'Mouse Toasts', false);
    await addTasksViaApi(page, ['Hover over me']);
    await page.reload();
    // A pin's toast is a plain success (2 s): no Undo of its own to hold it.
    await row(page, 'Hover over me').getByRole('button', { name: /^Pin/ }).click();
    const toast = page.locator('[data-rht-toaster] .platform-toast').first();
    await toast.waitFor();
    await toast.hover({ position: { x: 4, y: 4 } });
    await page.waitForTimeout(3_500);
    expect((await shownToasts(page)).length).toBe(1);
    await page.mouse.move(600, 200);
    const left = Date.now();
    await until(() => shownToasts(page), (shown) => shown.length === 0, 5_000);
    expect(Date.now() - left).toBeLessThan(3_000);
    await context.close();
  });

  for (const [width, height, theme] of [
    [375, 740, 'dark'],
    [1024, 700, 'light'],
  ] as const) {
    it(`never shows a toast over a control at ${width} px (${theme}): the toasts' band is the window's bottom edge while it shows`, async () => {
      const touch = width < 640;
      const { page, context } = await openDevice(browser(), { width, height, touch, theme });
      await signUpOn(page, `Band ${width}`, touch);
      await addTasksViaApi(page, titles(24));
      await page.reload();
      await row(page, 'Errand 24').waitFor();
      await page.waitForTimeout(3_000); // the first screen's rows have come in (PRODUCT §10.5.2)

      // The control just used stays in view: a checkbox just above the window's bottom edge, ticked; the
      // band that comes with its toast would cover it, so the page moves it clear.
      const target = row(page, 'Errand 20').getByRole('checkbox');
      await target.evaluate((box) => window.scrollBy(0, box.getBoundingClientRect().bottom - window.innerHeight + 12));
      if (touch) await target.tap();
      else await target.click();
      await until(() => shownToasts(page), (shown) => shown.length > 0, 5_000);
      // The page moves the control clear of the band as the band shows (within a few frames, longer on a busy machine).
      const clear = await until(
        () => target.evaluate((box) => box.getBoundingClientRect().bottom <= document.querySelector('[data-rht-toaster]')!.getBoundingClientRect().top),
        Boolean,
        3_000,
      ).catch(() => false);
      expect(clear).toBe(true);
      await snapshot(page, `phone-toast-band-${width}-${theme}`, { fullPage: false });

      // The toast stays while its Undo has the focus (PRODUCT §10.11.4): it shows for the whole sweep.
      await page.locator('[data-rht-toaster] button').first().focus();

      // Sweep the whole page, a few rows at a time, with the toast showing: every control whose centre is in
      // view (below the header, above the band) is what a press there hits; every one lower down is wholly
      // behind the band, which nothing shows or passes a press through; every toast lies inside the band.
      const sweep = await page.evaluate(async () => {
        const area = document.querySelector<HTMLElement>('[data-rht-toaster]')!;
        const problems: string[] = [];
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        const edge = area.getBoundingClientRect();
        const width = document.documentElement.clientWidth;
        if (edge.left > 0 || edge.right < width || Math.abs(edge.bottom - window.innerHeight) > 1) problems.push(`band ${JSON.stringify(edge)} is not the bottom edge`);
        const background = getComputedStyle(area).backgroundColor;
        if (!/^rgb\(/.test(background)) problems.push(`band background ${background} is not opaque`);
        let inView = 0;
        let behind = 0;
        const end = document.documentElement.scrollHeight - window.innerHeight;
        for (let y = 0; y <= end + 60; y += 45) {
          window.scrollTo(0, y);
          await frame();
          await frame();
          const band = area.getBoundingClientRect();
          if (!area.querySelector('.platform-toast')) {
            problems.push(`no toast showing any more at ${y}`);
            break;
          }
          for (const toast of Array.from(area.querySelectorAll('.platform-toast'))) {
            const box = toast.getBoundingClientRect();
            if (box.top < band.top || box.bottom > band.bottom) problems.push('a toast outside the band');
          }
          const top = document.querySelector('.app-top')!.getBoundingClientRect().bottom;
          for (const control of Array.from(document.querySelectorAll<HTMLElement>('main button, main input, main a[href]'))) {
            const box = control.getBoundingClientRect();
            if (box.width === 0 || box.height === 0) continue;
            const x = box.left + box.width / 2;
            const middle = box.top + box.height / 2;
            // Within a pixel of the window's edges, the browser hit-tests nothing (a point rounded out of it).
            if (middle <= top || middle >= window.innerHeight - 1) continue;
            const hit = document.elementFromPoint(x, middle);
            const name = control.getAttribute('aria-label') ?? control.textContent ?? control.tagName;
            // Within a pixel of the band's edge, rounding decides which a press hits: neither is claimed there.
            if (Math.abs(middle - band.top) <= 1) continue;
            if (middle < band.top) {
              inView += 1;
              if (hit?.closest('[data-rht-toaster]')) problems.push(`${name} under a toast at ${y}`);
            } else {
              behind += 1;
              if (!hit?.closest('[data-rht-toaster]')) problems.push(`${name} shows through the band at ${y}`);
            }
          }
        }
        // At the end of the page, the last row's controls are above the band: its height is kept free there.
        const rows = document.querySelectorAll('main li[data-todo-id]');
        const last = rows[rows.length - 1]!.getBoundingClientRect();
        if (last.bottom > area.getBoundingClientRect().top) problems.push('the last row cannot be scrolled above the band');
        return { problems, inView, behind, stillShown: area.querySelectorAll('.platform-toast').length };
      });
      expect(sweep.problems).toEqual([]);
      expect(sweep.inView).toBeGreaterThan(40);
      expect(sweep.stillShown).toBeGreaterThan(0);
      await snapshot(page, `phone-toast-band-end-${width}-${theme}`, { fullPage: false });
      await context.close();
    });
  }

  it('announces an error toast as an alert and a success as a status', async () => {
    const { page, context } = await openDevice(browser());
    await signUpOn(page, 'Alert Person');
    await addTasksViaApi(page, ['Offline tick']);
    await page.reload();
    await row(page, 'Offline tick').waitFor();
    await context.setOffline(true);
    // A sign-out needs the server: offline it fails, in an error toast.
    await page.getByRole('button', { name: 'Logout' }).tap();
    const alert = page.locator('[data-rht-toaster] [role="alert"]').filter({ hasText: "You're offline." });
    await alert.waitFor();
    expect(await alert.getAttribute('aria-live')).toBe('assertive');
    await context.setOffline(false);
    await row(page, 'Offline tick').getByRole('checkbox').tap();
    const status = page.locator('[data-rht-toaster] [role="status"]').first();
    await status.waitFor();
    expect(await status.getAttribute('aria-live')).toBe('polite');
    await context.close();
  });

  for (const width of [320, 360, 375]) {
    for (const theme of ['light', 'dark'] as const) {
      it(`keeps the title and every header button on one row at ${width} px (${theme}), 44 px touch targets`, async () => {
        const { page, context } = await openDevice(browser(), { width, height: 740, theme });
        await signUpOn(page, 'Header Person');
        const header = page.locator('.app-header');
        const boxes = await header.evaluate((element) => {
          const measure = (selector: string) => {
            const box = element.querySelector(selector)!.getBoundingClientRect();
            return { top: box.top, bottom: box.bottom, left: box.left, right: box.right, width: box.width, height: box.height };
          };
          return {
            brand: measure('.app-header__brand'),
            buttons: Array.from(element.querySelectorAll('.app-header__actions button')).map((button) => {
              const box = button.getBoundingClientRect();
              return { name: button.getAttribute('aria-label'), top: box.top, right: box.right, width: box.width, height: box.height };
            }),
            links: Array.from(element.querySelectorAll('.app-header__link')).map((link) => link.getBoundingClientRect().toJSON() as DOMRect),
            page: document.documentElement.clientWidth,
          };
        });
        expect(boxes.buttons.map((button) => button.name)).toEqual(['Switch to dark mode', 'Account menu', 'Logout'].map((name) => (theme === 'dark' && name.startsWith('Switch') ? 'Switch to light mode' : name)));
        for (const button of boxes.buttons) {
          // One row with the title: the buttons' middles level with the title's, nothing past the edge.
          expect(Math.abs(button.top + button.height / 2 - (boxes.brand.top + boxes.brand.height / 2))).toBeLessThan(4);
          expect(button.right).toBeLessThanOrEqual(boxes.page);
          expect(button.width).toBeGreaterThanOrEqual(width < 360 ? 40 : 44);
          expect(button.height).toBeGreaterThanOrEqual(width < 360 ? 40 : 44);
        }
        expect(boxes.brand.right).toBeLessThan(boxes.buttons[0]!.right - boxes.buttons[0]!.width);
        // The links have a row of their own below, each at least 44 px high and 24 px wide.
        expect(boxes.links.length).toBeGreaterThan(0);
        for (const link of boxes.links) {
          expect(link.top).toBeGreaterThanOrEqual(boxes.brand.bottom - 1);
          expect(link.height).toBeGreaterThanOrEqual(44);
          expect(link.width).toBeGreaterThanOrEqual(24);
        }
        expect(await seriousAxeViolations(page)).toEqual([]);
        await snapshot(page, `phone-header-${width}-${theme}`, { fullPage: false });
        await context.close();
      });
    }
  }

  it('makes the header compact and lets it scroll away while the on-screen keyboard is open', async () => {
    const { page, context } = await openDevice(browser(), { width: 360, height: 740 });
    await signUpOn(page, 'Keyboard Person');
    await addTasksViaApi(page, titles(20));
    await page.reload();
    await row(page, 'Errand 20').waitFor();
    // The first screen's rows come in one after another (PRODUCT §10.5.2): the page is complete after that.
    await page.waitForTimeout(3_000);
    const heightOf = () => page.locator('.app-top').evaluate((top) => top.getBoundingClientRect().height);
    const usual = await heightOf();
    // What the task screen says while a field has the focus and the visual viewport is much shorter.
    await page.evaluate(() => (document.documentElement.dataset.keyboard = 'open'));
    const compact = await heightOf();
    expect(compact).toBeLessThan(usual - 30);
    expect(await page.locator('.app-header__links').isVisible()).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 400));
    const afterScroll = await page.locator('.app-top').evaluate((top) => top.getBoundingClientRect().bottom);
    expect(afterScroll).toBeLessThanOrEqual(0);
    await snapshot(page, 'phone-header-keyboard-open-360', { fullPage: false });
    // Closed again: the header is back, sticky, with its links.
    await page.evaluate(() => delete document.documentElement.dataset.keyboard);
    expect(await heightOf()).toBeCloseTo(usual, 0);
    expect(await page.locator('.app-top').evaluate((top) => top.getBoundingClientRect().top)).toBe(0);
    await context.close();
  });

  it('puts the focus on the heading of the screen a tap navigates to, not on the first load', async () => {
    const { page, context } = await openDevice(browser());
    await signUpOn(page, 'Focus Person');
    await page.goto('/');
    await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('H1');

    await page.getByRole('link', { name: 'Insights' }).tap();
    const insights = page.locator('main h1');
    await page.waitForURL('**/insights');
    await until(() => page.evaluate(() => document.activeElement === document.querySelector('main h1')), Boolean, 5_000);
    expect(await insights.getAttribute('tabindex')).toBe('-1');

    await page.getByRole('link', { name: 'Tasks', exact: true }).tap();
    await until(() => page.evaluate(() => document.activeElement?.textContent === 'Task Manager' && document.activeElement.tagName === 'H1'), Boolean, 5_000);

    await page.getByRole('button', { name: 'Account menu' }).tap();
    await page.getByRole('link', { name: 'Account settings' }).tap();
    await until(() => page.evaluate(() => document.activeElement?.textContent === 'Account' && document.activeElement.tagName === 'H1'), Boolean, 5_000);
    await context.close();
  });

  it('has the loading screen say "Loading" and its stage from one live region, with no quote in it and no landmark', async () => {
    const { page, context } = await openDevice(browser());
    const release = await holdCurrentUserCheck(page);
    await page.goto('/login');
    const live = page.getByRole('status', { name: 'Loading' });
    await live.waitFor();
    // What a screen reader is given (textContent: the dots are drawn one by one, but all in the text).
    const said = await live.textContent();
    expect(said).toBe('Loading...Starting upConnecting to the server...');
    expect(await page.locator('[aria-live], [role="status"], [role="alert"], [role="log"]').count()).toBe(1);
    expect(await page.getByRole('contentinfo').count()).toBe(0);
    const quote = await page.getByTestId('loading-character').innerText();
    await page.waitForTimeout(2_200);
    expect(await page.getByTestId('loading-character').innerText()).not.toBe(quote);
    expect(await live.textContent()).toBe(said);
    release();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await context.close();
  });

  it('asks before a logout that would lose a half-typed task: Cancel keeps it, Escape too, "Sign out" removes it', async () => {
    const { page, context } = await openDevice(browser());
    await signUpOn(page, 'Draft Writer');
    await newTaskInput(page).fill('Call the plum');
    const logout = page.getByRole('button', { name: 'Logout' });
    await logout.tap();
    const question = page.getByRole('alertdialog', { name: 'Sign out?' });
    await question.waitFor();
    await question.getByText('Your unsaved task text will be lost.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await snapshot(page, 'phone-logout-question-390', { fullPage: false });
    await question.getByRole('button', { name: 'Cancel' }).tap();
    await question.waitFor({ state: 'detached' });
    expect(await newTaskInput(page).inputValue()).toBe('Call the plum');
    await logout.tap();
    await question.waitFor();
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/');

    await logout.tap();
    await question.getByRole('button', { name: 'Sign out' }).tap();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('tm.draft.')))).toEqual([]);
    await context.close();
  });

  it('never lets the next person in the tab read a draft of the one whose session ended elsewhere', async () => {
    const { page, context } = await openDevice(browser());
    const ada = await signUpOn(page, 'Ada Drafts');
    await newTaskInput(page).fill('Ada’s private thought');
    // Ada signs out everywhere from another device: this tab keeps her draft for her (PRODUCT §10.3).
    const other = await browser().newContext({ baseURL: baseUrl() });
    const device = await other.newPage();
    await device.goto('/login');
    await device.getByLabel('Email').fill(ada.email);
    await device.getByLabel('Password').fill(ada.password);
    await device.getByRole('button', { name: 'Sign In' }).click();
    await device.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    expect((await device.request.post('/api/user/logout-all', { headers: await xsrfHeaders(device) })).status()).toBe(200);
    await other.close();
    await page.waitForURL('**/login', { timeout: 15_000 });
    const drafts = () => page.evaluate(() => Object.entries(sessionStorage).filter(([key]) => key.startsWith('tm.draft.') && !key.endsWith('#savedAt')));
    const kept = await drafts();
    expect(kept).toHaveLength(1);
    expect(kept[0]![1]).toContain('Ada’s private thought');

    // Bob signs up in the same tab: Ada's draft is gone before his list shows, and his input is empty.
    await signUpOn(page, 'Bob Next');
    expect(await drafts()).toEqual([]);
    expect(await newTaskInput(page).inputValue()).toBe('');
    await context.close();
  });
});
