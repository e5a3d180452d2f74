import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { startStack, type RunningStack } from '@tm/test-support';

/**
 * What the smoke walk (walk.ts) needs from a browser engine, whatever drives it: playwright-core (Chromium,
 * over the DevTools protocol), puppeteer-core (Firefox, over WebDriver BiDi) or selenium-webdriver (WebKitGTK,
 * over WebDriver classic). Elements are found by a function run in the page (a {@link Finder}), so every engine
 * finds them the same way; clicks and typing go through each engine's own input (real pointer and key events).
 */
export interface Engine {
  readonly name: 'chromium' | 'firefox' | 'webkit';
  /** The browser and its version, as the driver reports it. */
  readonly version: string;
  /** A fresh browser profile (own cookies and storage: another device) with this viewport. */
  newSession(size: Size): Promise<EngineSession>;
  /**
   * The last console errors of the pages (where the driver reports them: WebDriver classic does not) or the
   * browser's own messages: printed when the walk fails.
   */
  readonly output: string[];
  /** Closes every session and stops the browser and whatever it needed (drivers, display). */
  close(): Promise<void>;
}

/** Keeps `line` at the end of `lines`, the last 200 only. */
export function keep(lines: string[], line: string): void {
  lines.push(line);
  if (lines.length > 200) lines.splice(0, lines.length - 200);
}

export interface Size {
  width: number;
  height: number;
}

/** Runs in the page: returns the element to act on, or nothing yet (it is asked again until it does). */
export type Finder = (arg: string) => Element | null | undefined;

/**
 * One page of one profile. Code for the page travels as expression text (`(fn)(arg)`): a function run by a
 * driver is its source, never a closure, and the drivers' own evaluation is not held to the app's
 * Content-Security-Policy (the page itself could not `eval`).
 */
export interface EngineSession {
  /** Opens a path of the app and waits for the page's load. */
  goto(pathname: string): Promise<void>;
  reload(): Promise<void>;
  /** Evaluates `expression` in the page (a promise is awaited) and returns its value (JSON-like values only). */
  run<R>(expression: string): Promise<R>;
  /** Clicks the element `expression` evaluates to, as a pointer does. */
  clickElement(expression: string): Promise<void>;
  /**
   * Drags with the mouse, as a person does: pressed on the middle of the element `from`, moved 10 px up (a drag
   * starts once the pointer has moved, PRODUCT §10.24), then to the middle of the element `to` in steps, and
   * released there.
   */
  drag(from: string, to: string): Promise<void>;
  /** Clicks the element (a text field), then types `text` key by key. */
  typeInto(expression: string, text: string): Promise<void>;
  /** Types `text` key by key into whatever has the focus (a field the page focused itself, as a dialog does). */
  keys(text: string): Promise<void>;
  /**
   * Chooses the option whose words are `label` in the <select> `expression`, with the driver's own means: a
   * native select's list of options is drawn by the browser, outside the page, where no driver reaches it.
   */
  selectOption(expression: string, label: string): Promise<void>;
  /** Makes the viewport this size, or as close as the engine allows; returns the page's inner width and height. */
  resize(size: Size): Promise<Size>;
  /** Saves what the viewport shows as a PNG. */
  screenshot(file: string): Promise<void>;
  /** Another tab of the same profile (same cookies, storage, service worker and BroadcastChannel). */
  newTab(): Promise<EngineSession>;
}

/** A point in the viewport (CSS pixels). */
export interface Point {
  x: number;
  y: number;
}

/** The points a drag from `from` to `to` passes ({@link EngineSession.drag}): 10 px up first, then eight steps on, whole pixels. */
export function dragPath(from: Point, to: Point): Point[] {
  const start = { x: from.x, y: from.y - 10 };
  const steps = Array.from({ length: 8 }, (_, index) => ({ x: start.x + ((to.x - start.x) * (index + 1)) / 8, y: start.y + ((to.y - start.y) * (index + 1)) / 8 }));
  return [start, ...steps].map((point) => ({ x: Math.round(point.x), y: Math.round(point.y) }));
}

/** The expression of the middle of the element `expression` evaluates to, in the viewport. */
export function middleOf(expression: string): string {
  return `((element) => { const box = element.getBoundingClientRect(); return { x: Math.round(box.left + box.width / 2), y: Math.round(box.top + box.height / 2) }; })(${expression})`;
}

/** The expression that calls `fn` with `arg` in the page. */
export function call(fn: (arg: string) => unknown, arg = ''): string {
  return `(${fn.toString()})(${JSON.stringify(arg)})`;
}

/** Runs `fn(arg)` in the page and returns its value (`fn` must not use anything from outside itself). */
export function evaluate<R>(session: EngineSession, fn: (arg: string) => R | Promise<R>, arg = ''): Promise<R> {
  return session.run<R>(call(fn, arg));
}

/** `describe`, or `describe.skip` with the reason printed, as the Chromium suites do without a Chromium. */
export function describeEngine(name: string, missing: string | undefined, body: () => void): void {
  if (missing) {
    console.warn(`${name} skipped: ${missing}`);
    // Skipped on purpose and said so: without the engine there is nothing to drive.
    describe.skip(name, body); // reason: printed above
  } else {
    describe(name, body);
  }
}

/** The first of these paths that exists (Debian packages put some files under a versioned folder). */
export function firstExisting(paths: string[]): string | undefined {
  return paths.find((candidate) => existsSync(candidate));
}

/**
 * The app the walk runs against: the run's app (e2e/global-setup.js) when it started one; otherwise (the
 * setup starts none without a Chromium) an app of the file's own, so Firefox and WebKit do not depend on
 * Chromium being installed. Call at the top of a describe; returns a getter for the base URL.
 */
export function useApp(): () => string {
  let own: RunningStack | undefined;
  beforeAll(async () => {
    if (!process.env.E2E_BASE_URL) own = await startStack({ web: true });
  });
  afterAll(async () => {
    await own?.stop();
  });
  return () => {
    const url = process.env.E2E_BASE_URL ?? own?.url;
    if (!url) throw new Error('the app is not running');
    return url;
  };
}

/** Where screenshots for people go (the same folder as the Chromium suites' `snapshot`). */
export function screenshotPath(name: string): string {
  const dir = path.join(__dirname, '..', '..', '..', '.test-data', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.png`);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Asks the page `expression` until `done` says its answer will do, and returns that answer; fails after
 * `timeoutMs` with `what` and the last answer. An answer lost to a navigation (the page's context going away
 * mid-call) is asked again.
 */
async function poll<R>(session: EngineSession, what: string, expression: string, done: (answer: unknown) => boolean, timeoutMs: number): Promise<R> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      last = await session.run<R>(expression);
      if (done(last)) return last as R;
    } catch (error) {
      last = error instanceof Error ? error.message : error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    // Often at first, then less: a long wait (a page loading) is not slowed by the asking.
    await sleep(Date.now() - started < 1000 ? 100 : 250);
  }
}

/**
 * Asks the page `fn(arg)` until it returns something truthy (an element: `true`), and returns that; fails after
 * `timeoutMs` with `what` and the last answer.
 */
export function until<R>(session: EngineSession, what: string, fn: (arg: string) => R | Promise<R>, arg = '', timeoutMs = 10_000): Promise<R> {
  // An element found is reported as `true`: drivers do not send DOM nodes back as values.
  return poll<R>(session, what, `((value) => (value instanceof Element ? true : value))(${call(fn, arg)})`, Boolean, timeoutMs);
}

/** `value` as JSON with every object's keys in order: WebDriver classic hands an object back with its keys in an order of its own. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, part: unknown) =>
    part !== null && typeof part === 'object' && !Array.isArray(part) ? Object.fromEntries(Object.entries(part).sort(([a], [b]) => a.localeCompare(b))) : part,
  );
}

/**
 * Asks the page `fn(arg)` until its answer is `expected` (the same JSON, whatever the order of its keys), so
 * that a failure says what the page said instead; fails after `timeoutMs`.
 */
export async function untilEqual<R>(session: EngineSession, what: string, fn: (arg: string) => R | Promise<R>, arg: string, expected: R, timeoutMs = 10_000): Promise<void> {
  const want = canonical(expected);
  await poll(session, `${what}: ${want}`, call(fn, arg), (answer) => canonical(answer) === want, timeoutMs);
}

/** Where `find(arg)`'s element is, rounded, when it is visible ('' otherwise): to tell when it holds still. */
function boxOf(find: Finder, arg: string): string {
  return `(() => {
    const element = (${find.toString()})(${JSON.stringify(arg)});
    const box = element ? element.getBoundingClientRect() : undefined;
    return box && box.width > 0 && box.height > 0 ? [box.x, box.y, box.width, box.height].map(Math.round).join(',') : '';
  })()`;
}

/**
 * Waits until `find(arg)` returns an element that is visible and has held still for 150 ms (a row sliding in,
 * a form growing as a hint arrives), so that an action lands where the element is: Playwright checks this by
 * itself, the WebDriver clients do not.
 */
async function settled(session: EngineSession, find: Finder, arg: string, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let previous = '';
  for (;;) {
    let box = '';
    try {
      box = await session.run<string>(boxOf(find, arg));
    } catch {
      // a navigation replaced the page mid-call: ask again
    }
    if (box && box === previous) return;
    previous = box;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} to show and hold still`);
    await sleep(box ? 150 : 100);
  }
}

/** Clicks `find(arg)`'s element once it shows and holds still. */
export async function click(session: EngineSession, what: string, find: Finder, arg = '', timeoutMs = 10_000): Promise<void> {
  await settled(session, find, arg, what, timeoutMs);
  await session.clickElement(call(find, arg));
}

/** Chooses the option `label` of `find(arg)`'s <select> once it shows and holds still. */
export async function choose(session: EngineSession, what: string, find: Finder, arg: string, label: string, timeoutMs = 10_000): Promise<void> {
  await settled(session, find, arg, what, timeoutMs);
  await session.selectOption(call(find, arg), label);
}

/** Types `text` into `find(arg)`'s field once it shows and holds still. */
export async function type(session: EngineSession, what: string, find: Finder, arg: string, text: string, timeoutMs = 10_000): Promise<void> {
  await settled(session, find, arg, what, timeoutMs);
  await session.typeInto(call(find, arg), text);
}
