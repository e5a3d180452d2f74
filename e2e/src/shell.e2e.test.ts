import { openSession, useBrowser } from './browser.js';
import { describeInBrowser, seriousAxeViolations, signUp, snapshot } from './app.js';

const browser = useBrowser();

describeInBrowser('the shell in Chromium', () => {
  it('toggles the theme, saves it, and applies it before first paint after a reload', async () => {
    const { page, context } = await openSession(browser());
    await page.goto('/login');
    const root = page.locator('html');
    expect(await root.getAttribute('data-theme')).toBe('light');
    await page.getByTitle('Switch to dark mode').click();
    expect(await root.getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.getByTitle('Switch to light mode').waitFor();
    // Record the theme as soon as the document exists, before any bundle runs.
    await context.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive') {
          (window as unknown as { __firstTheme: string | null }).__firstTheme = document.documentElement.getAttribute('data-theme');
        }
      });
    });
    await page.reload();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __firstTheme: string | null }).__firstTheme)).toBe('dark');
    await snapshot(page, 'login-dark');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await signUp(page, 'Night Owl');
    await snapshot(page, 'tasks-dark');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('shows a fallback with Retry when a remote is down, while header and theme keep working', async () => {
    const { page, context } = await openSession(browser());
    await signUp(page, 'Resilient User');
    await page.route('**/remotes/tasks/**', (route) => route.abort('connectionrefused'));
    await page.reload();
    const fallback = page.getByRole('alert').filter({ hasText: 'could not be loaded' });
    await fallback.waitFor();
    await snapshot(page, 'remote-down');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByTitle('Switch to dark mode').click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.unroute('**/remotes/tasks/**');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
    expect(await fallback.count()).toBe(0);
    await context.close();
  });

  it('keeps the sign-in screen working when the tasks remote is down', async () => {
    const { page, context } = await openSession(browser());
    await page.route('**/remotes/tasks/**', (route) => route.abort('connectionrefused'));
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await context.close();
  });

  it('moves motion out of the way when the user asks for reduced motion', async () => {
    const { page, context } = await openSession(browser(), { reducedMotion: 'reduce' });
    await signUp(page, 'Calm User');
    const duration = await page.locator('.loading-screen, body').first().evaluate(() => {
      const probe = document.createElement('div');
      probe.style.transition = 'opacity 2s';
      document.body.append(probe);
      const value = getComputedStyle(probe).transitionDuration;
      probe.remove();
      return value;
    });
    expect(parseFloat(duration)).toBeLessThan(0.1);
    await context.close();
  });
});
