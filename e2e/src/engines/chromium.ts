import type { BrowserContext, ElementHandle, Page } from 'playwright-core';
import { chromiumAvailable, CHROMIUM_PATH, launchBrowser } from '../browser.js';
import { dragPath, keep, middleOf, type Engine, type EngineSession, type Point } from './engine.js';

/** Why Chromium cannot run here, or undefined when it can. */
export function chromiumMissing(): string | undefined {
  return chromiumAvailable() ? undefined : `no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
}

/** Debian's Chromium through playwright-core (the browser of the other e2e suites), for the same walk. */
export async function startChromium(baseUrl: string): Promise<Engine> {
  const browser = await launchBrowser();
  const output: string[] = [];
  const watch = (page: Page) => {
    page.on('pageerror', (error) => keep(output, `page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') keep(output, `console: ${message.text()}`);
    });
    return page;
  };
  return {
    name: 'chromium',
    version: `Chromium ${browser.version()}`,
    output,
    async newSession(size) {
      const context = await browser.newContext({ baseURL: baseUrl, viewport: size, serviceWorkers: 'allow' });
      context.on('page', watch);
      return chromiumSession(context, await context.newPage());
    },
    close: () => browser.close(),
  };
}

async function element(page: Page, expression: string): Promise<ElementHandle> {
  const found = (await page.evaluateHandle(expression)).asElement();
  if (!found) throw new Error(`no element: ${expression}`);
  return found;
}

function chromiumSession(context: BrowserContext, page: Page): EngineSession {
  return {
    goto: async (pathname) => {
      await page.goto(pathname);
    },
    reload: async () => {
      await page.reload();
    },
    run: (expression) => page.evaluate(expression),
    clickElement: async (expression) => (await element(page, expression)).click(),
    drag: async (from, to) => {
      const start = await page.evaluate<Point>(middleOf(from));
      const end = await page.evaluate<Point>(middleOf(to));
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      for (const point of dragPath(start, end)) await page.mouse.move(point.x, point.y);
      await page.mouse.up();
    },
    typeInto: async (expression, text) => {
      await (await element(page, expression)).click();
      await page.keyboard.type(text);
    },
    keys: (text) => page.keyboard.type(text),
    selectOption: async (expression, label) => {
      await (await element(page, expression)).selectOption({ label });
    },
    resize: async (size) => {
      await page.setViewportSize(size);
      return page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
    },
    screenshot: async (file) => {
      await page.screenshot({ path: file });
    },
    newTab: async () => chromiumSession(context, await context.newPage()),
  };
}

