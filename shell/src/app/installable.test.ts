import { readFileSync } from 'node:fs';
import path from 'node:path';
import { THEME_COLORS } from '../features/theme/theme-color';
import { appHead } from './prerender';

// The installed app (PRODUCT §10.13): what shell/public/manifest.webmanifest and index.html's head say, and
// that they agree with the icons committed beside them and with the design tokens. The browser test
// (e2e/src/installable.e2e.test.ts) asks Chromium itself whether the app can be installed.

const SHELL = path.join(__dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(SHELL, 'public/manifest.webmanifest'), 'utf8')) as {
  name: string;
  short_name: string;
  id: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
  shortcuts: { name: string; url: string }[];
};

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(file: string): string {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** A token's value in the given theme of @tm/design-tokens. */
function token(theme: 'light' | 'dark', name: string): string {
  const css = readFileSync(path.join(SHELL, '../packages/design-tokens/tokens.css'), 'utf8');
  const block = theme === 'light' ? css.slice(0, css.indexOf("[data-theme='dark']")) : css.slice(css.indexOf("[data-theme='dark']"));
  const value = new RegExp(`${name}:\\s*([^;]+);`).exec(block)?.[1];
  if (!value) throw new Error(`${name} not found in the ${theme} tokens`);
  return value.trim();
}

describe('the web app manifest', () => {
  it('names the app, starts at / in its own window and covers the whole origin', () => {
    expect(manifest).toMatchObject({ name: 'Task Manager', short_name: 'Tasks', id: '/', start_url: '/', scope: '/', display: 'standalone' });
  });

  it('lists 192 and 512 px PNG icons, maskable ones too, each the size it says', () => {
    const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
    for (const icon of pngs) expect(pngSize(path.join(SHELL, 'public', icon.src))).toBe(icon.sizes);
    const sizes = (purpose: string) => pngs.filter((icon) => icon.purpose === purpose).map((icon) => icon.sizes);
    expect(sizes('any')).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(sizes('maskable')).toEqual(expect.arrayContaining(['512x512']));
  });

  it('takes its colours from the light theme (the default), the meta tags from both', () => {
    expect(manifest.theme_color).toBe(THEME_COLORS.light);
    expect(manifest.background_color).toBe(token('light', '--color-bg'));
    expect(THEME_COLORS.light).toBe(token('light', '--color-surface'));
    expect(THEME_COLORS.dark).toBe(token('dark', '--color-surface'));
  });

  it('offers the "Add a task" shortcut, which opens the task list with the new-task field focused', () => {
    expect(manifest.shortcuts).toEqual([expect.objectContaining({ name: 'Add a task', url: '/?new=1' })]);
  });
});

describe('the head of index.html', () => {
  it('links the manifest and the iOS icon, says the app runs standalone, and gives a theme colour per scheme', () => {
    const head = document.createElement('div');
    head.innerHTML = appHead();
    expect(head.querySelector('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    expect(pngSize(path.join(SHELL, 'public', head.querySelector('link[rel="apple-touch-icon"]')!.getAttribute('href')!))).toBe('180x180');
    expect(head.querySelector('meta[name="apple-mobile-web-app-capable"]')).toHaveAttribute('content', 'yes');
    const colours = [...head.querySelectorAll('meta[name="theme-color"]')].map((meta) => [meta.getAttribute('media'), meta.getAttribute('content')]);
    expect(colours).toEqual([
      ['(prefers-color-scheme: light)', THEME_COLORS.light],
      ['(prefers-color-scheme: dark)', THEME_COLORS.dark],
    ]);
  });

  it('sets both theme colours to the theme already on the page before the first paint (the person’s choice wins)', () => {
    document.documentElement.setAttribute('data-theme', 'dark');
    // As the browser parses the head: the metas, then the script, which runs at once.
    const script = document.createElement('script');
    script.textContent = /<script>([\s\S]*)<\/script>/.exec(appHead())![1]!;
    document.head.innerHTML = appHead().replace(/<script>[\s\S]*<\/script>/, '');
    document.head.append(script);
    expect([...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((meta) => meta.content)).toEqual([THEME_COLORS.dark, THEME_COLORS.dark]);
    document.documentElement.setAttribute('data-theme', 'light');
    document.head.innerHTML = '';
  });
});
