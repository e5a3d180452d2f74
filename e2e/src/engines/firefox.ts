import { existsSync } from 'node:fs';
import puppeteer, { type BrowserContext, type ElementHandle, type Page } from 'puppeteer-core';
import { dragPath, keep, middleOf, type Engine, type EngineSession, type Point } from './engine.js';

/** Debian's Firefox ESR (`apt-get install -y firefox-esr`), never a downloaded one; override with FIREFOX_PATH. */
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Why Firefox cannot run here, or undefined when it can. */
export function firefoxMissing(): string | undefined {
  return existsSync(FIREFOX_PATH) ? undefined : `no Firefox at ${FIREFOX_PATH} (apt-get install -y firefox-esr, or set FIREFOX_PATH)`;
}

/**
 * Firefox ESR driven over WebDriver BiDi by puppeteer-core, headless, in a temporary profile puppeteer makes
 * and removes. Each session is a user context of its own (its own cookies and storage).
 */
export async function startFirefox(baseUrl: string): Promise<Engine> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    protocol: 'webDriverBiDi',
    extraPrefsFirefox: {
      // The app's sounds play without a gesture first, as in the Chromium suites.
      'media.autoplay.default': 0,
    },
  });
  const front: Front = { page: undefined };
  const output: string[] = [];
  const watch = (page: Page) => {
    page.on('pageerror', (error) => keep(output, `page error: ${String(error)}`));
    page.on('console', (message) => {
      if (message.type() === 'error') keep(output, `console: ${message.text()}`);
    });
    return page;
  };
  return {
    name: 'firefox',
    output,
    version: `Firefox ${(await browser.version()).replace(/^firefox\//, '')}`,
    async newSession(size) {
      const context = await browser.createBrowserContext();
      const page = watch(await context.newPage());
      await page.setViewport(size);
      return firefoxSession(baseUrl, front, watch, context, page);
    },
    close: () => browser.close(),
  };
}

/** The page in front: the one a person looks at and acts on. */
interface Front {
  page: Page | undefined;
}

/**
 * Every action first brings its page to the front, as a person switching windows does: Firefox stops the
 * animation frames of a page in the background, and the list's rows fade in on animation frames.
 */
function firefoxSession(baseUrl: string, front: Front, watch: (page: Page) => Page, context: BrowserContext, page: Page): EngineSession {
  const use = async () => {
    if (front.page === page) return;
    await page.bringToFront();
    front.page = page;
  };
  const element = async (expression: string): Promise<ElementHandle> => {
    await use();
    const found = (await page.evaluateHandle(expression)).asElement();
    if (!found) throw new Error(`no element: ${expression}`);
    return found as ElementHandle;
  };
  return {
    goto: async (pathname) => {
      await use();
      await page.goto(new URL(pathname, baseUrl).href, { waitUntil: 'load' });
    },
    reload: async () => {
      await use();
      await page.reload({ waitUntil: 'load' });
    },
    // Reading the page does not bring it to the front (a page coming to the front also catches up on its list).
    run: async <R>(expression: string) => (await page.evaluate(expression)) as R,
    clickElement: async (expression) => (await element(expression)).click(),
    drag: async (from, to) => {
      await use();
      const start = (await page.evaluate(middleOf(from))) as Point;
      const end = (await page.evaluate(middleOf(to))) as Point;
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      for (const point of dragPath(start, end)) await page.mouse.move(point.x, point.y);
      await page.mouse.up();
    },
    typeInto: async (expression, text) => {
      const field = await element(expression);
      await field.click();
      await field.type(text);
    },
    keys: async (text) => {
      await use();
      await page.keyboard.type(text);
    },
    // Puppeteer's select() takes the option's value: the option is found by its words first.
    selectOption: async (expression, label) => {
      const select = await element(expression);
      const value = await select.evaluate((node, wanted) => Array.from((node as HTMLSelectElement).options).find((option) => option.label === wanted)?.value, label);
      if (value === undefined) throw new Error(`no option “${label}” in ${expression}`);
      await select.select(value);
    },
    resize: async (size) => {
      await use();
      await page.setViewport(size);
      return page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
    },
    screenshot: async (file) => {
      await use();
      await page.screenshot({ path: file });
    },
    newTab: async () => {
      const tab = watch(await context.newPage());
      const { width, height } = await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
      await tab.setViewport({ width, height });
      return firefoxSession(baseUrl, front, watch, context, tab);
    },
  };
}
