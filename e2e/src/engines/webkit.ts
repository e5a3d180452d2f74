import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { freePort, tempDir } from '@tm/test-support';
import { Builder, Origin, type WebDriver, type WebElement } from 'selenium-webdriver';
import { dragPath, keep, middleOf, sleep, type Engine, type EngineSession, type Point, type Size } from './engine.js';

/** Debian's `webkit2gtk-driver`; override with WEBKIT_DRIVER_PATH. */
export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';

/** Debian's `xvfb`; override with XVFB_PATH. */
export const XVFB_PATH = process.env.XVFB_PATH ?? '/usr/bin/Xvfb';

/**
 * WebKitGTK's MiniBrowser (in `libwebkit2gtk-4.1-0`, which `webkit2gtk-driver` depends on), found under its
 * versioned folder (/usr/lib/<arch>-linux-gnu/webkit2gtk-4.1/MiniBrowser); override with MINIBROWSER_PATH.
 */
export function miniBrowserPath(): string | undefined {
  if (process.env.MINIBROWSER_PATH) return existsSync(process.env.MINIBROWSER_PATH) ? process.env.MINIBROWSER_PATH : undefined;
  const candidates: string[] = [];
  for (const lib of ['/usr/lib', '/usr/libexec']) {
    if (!existsSync(lib)) continue;
    for (const arch of readdirSync(lib).filter((name) => name.endsWith('-linux-gnu'))) {
      const dir = path.join(lib, arch);
      for (const webkit of readdirSync(dir).filter((name) => /^webkit2gtk-4\.\d+$/.test(name)).sort().reverse()) {
        candidates.push(path.join(dir, webkit, 'MiniBrowser'));
      }
    }
  }
  return candidates.find((candidate) => existsSync(candidate));
}

/** Why WebKitGTK cannot run here, or undefined when it can. */
export function webkitMissing(): string | undefined {
  if (!existsSync(WEBKIT_DRIVER_PATH)) return `no WebKitWebDriver at ${WEBKIT_DRIVER_PATH} (apt-get install -y webkit2gtk-driver, or set WEBKIT_DRIVER_PATH)`;
  if (!miniBrowserPath()) return 'no MiniBrowser under /usr/lib/*-linux-gnu/webkit2gtk-4.* (it comes with libwebkit2gtk-4.1-0; or set MINIBROWSER_PATH)';
  if (!existsSync(XVFB_PATH)) return `no Xvfb at ${XVFB_PATH} (MiniBrowser has no headless mode: apt-get install -y xvfb, or set XVFB_PATH)`;
  return undefined;
}

/**
 * MiniBrowser's toolbar keeps its window at least 447 px wide; GTK's own stylesheet, read from
 * $XDG_CONFIG_HOME/gtk-3.0/gtk.css, lets its widgets shrink so the page can be 375 px wide. It styles the
 * browser's window only: the page is drawn by WebKit, not by GTK.
 */
const SHRINKABLE_TOOLBAR = '* { min-width: 0; padding: 0; margin: 0; }\n';

/**
 * The Xvfb screen: wide enough for two desktop-sized windows side by side. A window hidden under another is
 * a page in the background to WebKit (timers slowed, no animation frames); a person looks at both devices.
 */
const SCREEN = { width: 2600, height: 1000 };
const WINDOW_SPACING = 1300;

/** Starts Xvfb on a display number it picks itself (-displayfd) and resolves with it. */
async function startXvfb(): Promise<{ display: string; child: ChildProcess }> {
  const child = spawn(XVFB_PATH, ['-displayfd', '3', '-screen', '0', `${SCREEN.width}x${SCREEN.height}x24`, '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const fd3 = child.stdio[3] as Readable;
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb gave no display in 10 s: ${stderr}`)), 10_000);
    fd3.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${out.trim()}`);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited with ${code}: ${stderr}`));
    });
  });
  return { display, child };
}

/** Stops a process this engine started: SIGTERM, and SIGKILL if it is still there 5 s later. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Lines of ALSA, OpenAL and D-Bus about the sound card and session bus a build machine lacks. */
const NOISE = /ALSA lib|AL lib|snd_|cannot find card|error evaluating|dbus-launch|D-Bus/;

/** Starts a WebKitWebDriver on a free port and resolves once it answers /status. */
async function startDriver(env: NodeJS.ProcessEnv, output: string[]): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // The driver's output holds MiniBrowser's too; less the complaints of a machine without sound card or
  // desktop session, which say nothing about the page.
  const read = (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter((line) => line.trim() && !NOISE.test(line))
      .forEach((line) => keep(output, line));
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${child.exitCode}: ${output.join('\n')}`);
    try {
      if ((await fetch(`${url}/status`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop(child);
      throw new Error(`WebKitWebDriver did not answer in 10 s: ${output.join('\n')}`);
    }
    await sleep(100);
  }
}

/**
 * WebKitGTK: MiniBrowser driven by Debian's WebKitWebDriver over WebDriver classic (selenium-webdriver), on an
 * Xvfb display this engine starts and stops (MiniBrowser has no headless mode). A driver serves one session,
 * so every session (a profile of its own) gets its own WebKitWebDriver on its own port.
 */
export async function startWebKit(baseUrl: string): Promise<Engine> {
  const binary = miniBrowserPath();
  if (!binary) throw new Error(webkitMissing());
  const temp = tempDir('tm-webkit-');
  const config = path.join(temp.dir, 'config');
  mkdirSync(path.join(config, 'gtk-3.0'), { recursive: true });
  writeFileSync(path.join(config, 'gtk-3.0', 'gtk.css'), SHRINKABLE_TOOLBAR);
  const xvfb = await startXvfb();
  const drivers = new Set<{ child: ChildProcess; driver: WebDriver }>();
  const quit = async (entry: { child: ChildProcess; driver: WebDriver }) => {
    if (!drivers.delete(entry)) return;
    // A driver stuck on a busy machine does not hold the run: it is stopped after 10 s regardless; MiniBrowser
    // goes with the display at the latest.
    await Promise.race([entry.driver.quit().catch(() => undefined), sleep(10_000)]);
    await stop(entry.child);
  };
  const output: string[] = [];
  let version = 'WebKitGTK';
  let sessions = 0;
  return {
    name: 'webkit',
    get version() {
      return version;
    },
    output,
    async newSession(size) {
      sessions += 1;
      // MiniBrowser under automation keeps cookies and storage in memory, its own per instance: each session
      // is a fresh profile. The usual cache folder is kept (Mesa's compiled shaders, GStreamer's plugin list):
      // building them again for every session would cost seconds of CPU.
      const env = {
        ...process.env,
        DISPLAY: xvfb.display,
        XDG_CONFIG_HOME: config,
        // No accessibility bus to wait for on a display without a desktop.
        NO_AT_BRIDGE: '1',
      };
      const { url, child } = await startDriver(env, output);
      let driver: WebDriver;
      try {
        driver = await new Builder()
          .usingServer(url)
          .withCapabilities({
            browserName: 'MiniBrowser',
            'webkitgtk:browserOptions': {
              binary,
              args: ['--automation', '--autoplay-policy=allow'],
            },
          })
          .build();
      } catch (error) {
        await stop(child);
        throw error;
      }
      const entry = { child, driver };
      drivers.add(entry);
      version = `WebKitGTK ${String((await driver.getCapabilities()).get('browserVersion'))}`;
      const first = await driver.getWindowHandle();
      const session = webkitSession(baseUrl, driver, { current: first }, first, (sessions - 1) * WINDOW_SPACING);
      await session.resize(size);
      return session;
    },
    async close() {
      for (const entry of [...drivers]) await quit(entry);
      await stop(xvfb.child);
      temp.remove();
    },
  };
}

/** Which window of a driver its commands go to now (a tab's commands switch to it first). */
interface WindowState {
  current: string | undefined;
}

/** The window `handle` of `driver`, placed `x` pixels from the display's left edge. */
function webkitSession(baseUrl: string, driver: WebDriver, windows: WindowState, handle: string, x: number): EngineSession {
  const use = async () => {
    if (windows.current === handle) return;
    await driver.switchTo().window(handle);
    windows.current = handle;
  };
  const element = async (expression: string): Promise<WebElement> => {
    await use();
    const found = await driver.executeScript<WebElement | null>(`return ${expression};`);
    if (!found) throw new Error(`no element: ${expression}`);
    return found;
  };
  const inner = () => driver.executeScript<Size>('return { width: window.innerWidth, height: window.innerHeight };');
  return {
    goto: async (pathname) => {
      await use();
      await driver.get(new URL(pathname, baseUrl).href);
    },
    reload: async () => {
      await use();
      await driver.navigate().refresh();
    },
    run: async <R>(expression: string) => {
      await use();
      return driver.executeScript<R>(`return ${expression};`);
    },
    clickElement: async (expression) => (await element(expression)).click(),
    // One action chain (WebDriver §17.5 Perform Actions): each move a pointermove the page sees, in the viewport.
    drag: async (from, to) => {
      await use();
      const start = await driver.executeScript<Point>(`return ${middleOf(from)};`);
      const end = await driver.executeScript<Point>(`return ${middleOf(to)};`);
      let actions = driver.actions({ async: true }).move({ origin: Origin.VIEWPORT, ...start }).press();
      for (const point of dragPath(start, end)) actions = actions.move({ origin: Origin.VIEWPORT, ...point, duration: 50 });
      await actions.release().perform();
    },
    typeInto: async (expression, text) => {
      const field = await element(expression);
      await field.click();
      await field.sendKeys(text);
    },
    keys: async (text) => {
      await use();
      await driver.actions().sendKeys(text).perform();
    },
    // WebDriver selects an <option> by clicking it (WebDriver §12.4.1 Element Click), as a person picks it from the list.
    selectOption: async (expression, label) => {
      const option = await element(`Array.from((${expression}).options).find((option) => option.label === ${JSON.stringify(label)})`);
      await option.click();
    },
    resize: async (size) => {
      await use();
      // The window holds MiniBrowser's toolbar above the page: it is that much taller than the viewport.
      const window = await driver.manage().window().getRect();
      const chrome = window.height - (await inner()).height;
      await driver.manage().window().setRect({ x, y: 0, width: size.width, height: size.height + chrome });
      // The page sees its new size once GTK has laid the window out again.
      const deadline = Date.now() + 5000;
      let now = await inner();
      while ((now.width !== size.width || now.height !== size.height) && Date.now() < deadline) {
        await sleep(100);
        now = await inner();
      }
      return now;
    },
    screenshot: async (file) => {
      await use();
      // Two frames drawn first: right after a window switch, a shot can come out black.
      await driver.executeScript('return new Promise((resolve) => { setTimeout(resolve, 500); requestAnimationFrame(() => requestAnimationFrame(resolve)); });');
      writeFileSync(file, await driver.takeScreenshot(), 'base64');
    },
    newTab: async () => {
      await use();
      const size = await inner();
      await driver.switchTo().newWindow('tab');
      const opened = await driver.getWindowHandle();
      windows.current = opened;
      const tab = webkitSession(baseUrl, driver, windows, opened, x);
      await tab.resize(size);
      return tab;
    },
  };
}
