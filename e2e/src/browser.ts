import { existsSync } from 'node:fs';
import { startStack, type RunningStack, type StackOptions } from '@tm/test-support';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (never a downloaded one); override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** Flags that work on these machines: no sandbox as root, no GPU, and no background traffic to the net. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}

/** The base URL of the app started by the e2e global setup. */
export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run the browser tests through `pnpm test:e2e`');
  return url;
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Paths of every request the page made, in order (e.g. '/sounds/added.mp3'). */
  requests: string[];
  /** Console errors and page errors, to assert the app ran cleanly. */
  errors: string[];
}

/** A fresh browser profile (own cookies and storage) on the app (or on another one started by the test: `baseUrl`). */
export async function openSession(
  browser: Browser,
  options: {
    width?: number;
    height?: number;
    reducedMotion?: 'reduce' | 'no-preference';
    baseUrl?: string;
    /**
     * The shell's service worker runs only where a test asks for it ('allow'): requests it makes
     * are out of reach of `page.route`, which many tests use to hold or break the network.
     */
    serviceWorkers?: 'allow' | 'block';
    javaScriptEnabled?: boolean;
  } = {},
): Promise<Session> {
  const context = await browser.newContext({
    baseURL: options.baseUrl ?? baseUrl(),
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    reducedMotion: options.reducedMotion ?? 'no-preference',
    serviceWorkers: options.serviceWorkers ?? 'block',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { context, page, requests, errors };
}

/**
 * One Chromium for the tests of a file: launched before them, closed after them (nothing is launched when
 * the browser tests are skipped). Returns a getter, since the browser exists only once `beforeAll` ran.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!process.env.E2E_SKIP) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not running');
    return browser;
  };
}

/**
 * A Chromium and an app of the file's own (a suite that stops and starts services, reads its gateway's ops
 * port or data files, or needs other settings than the run's app): both started before the tests, stopped
 * after them; nothing is started when the browser tests are skipped. Returns getters, as {@link useBrowser}.
 */
export function useOwnApp(options: StackOptions = { web: true }): { browser: () => Browser; stack: () => RunningStack } {
  let browser: Browser | undefined;
  let stack: RunningStack | undefined;
  beforeAll(async () => {
    if (process.env.E2E_SKIP) return;
    [browser, stack] = await Promise.all([launchBrowser(), startStack(options)]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  const running = <T>(value: T | undefined, what: string): T => {
    if (!value) throw new Error(`${what} is not running`);
    return value;
  };
  return { browser: () => running(browser, 'the browser'), stack: () => running(stack, 'the app') };
}
