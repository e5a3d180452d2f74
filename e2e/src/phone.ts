import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl } from './browser.js';
import { newAccount } from './app.js';

// What the phone tests share (phone-shell, phone-tasks): a fresh touch-only profile, a sign-up by tap, and
// a poll until a value settles.

export type Theme = 'light' | 'dark';

/**
 * A fresh profile: a phone (touch only: every press is a tap, so no mouse ever moves) by default, or a
 * desktop with a mouse and a keyboard. No service worker, so every request is the page's own.
 */
export async function openDevice(
  which: Browser,
  { width = 390, height = 844, touch = true, theme = 'light' }: { width?: number; height?: number; touch?: boolean; theme?: Theme } = {},
): Promise<{ context: BrowserContext; page: Page; requests: string[]; errors: string[] }> {
  const context = await which.newContext({
    baseURL: baseUrl(),
    viewport: { width, height },
    hasTouch: touch,
    isMobile: touch,
    serviceWorkers: 'block',
    reducedMotion: 'no-preference',
  });
  await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, requests, errors };
}

/** Signs a new person up through the sign-up screen, pressing its button as the device does (a tap on touch). */
export async function signUpOn(page: Page, fullName: string, touch = true): Promise<ReturnType<typeof newAccount>> {
  const account = newAccount(fullName);
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill(account.fullName);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  const submit = page.getByRole('button', { name: 'Sign Up' });
  if (touch) await submit.tap();
  else await submit.click();
  await page.getByRole('heading', { name: 'Task Manager', level: 1 }).waitFor();
  return account;
}

/** Polls `read` until `done` holds for its value, failing with the last value after `timeoutMs`. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  if (!done(last)) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(last)}`);
  return last;
}
