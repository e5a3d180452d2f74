// The PNG icons of the installed app (shell/public/icons/, named in shell/public/manifest.webmanifest and
// index.html), drawn from shell/public/favicon.svg by Debian's Chromium through playwright-core (the e2e
// package's copy). The PNGs are committed; run `node shell/build/icons.mjs` again after changing the favicon.
// - icon-192.png, icon-512.png: the favicon as it is (rounded corners, transparent outside them);
// - maskable-192.png, maskable-512.png: the same on a full square (the platform cuts its own shape; the check
//   mark lies well inside the safe zone, the middle 80 % circle);
// - apple-touch-icon.png (180 px): the full square, no transparency (iOS rounds it itself).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const dir = path.join(import.meta.dirname, '..');
const { chromium } = createRequire(path.join(dir, '../e2e/package.json'))('playwright-core');
const favicon = readFileSync(path.join(dir, 'public/favicon.svg'), 'utf8');
const square = favicon.replace(/\srx="[^"]*"/, '');
if (square === favicon) throw new Error('favicon.svg: no rounded background (rx) found to square off');

const ICONS = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'maskable-192.png', size: 192, svg: square },
  { file: 'maskable-512.png', size: 512, svg: square },
  { file: 'apple-touch-icon.png', size: 180, svg: square },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { file, size, svg } of ICONS) {
    await page.setViewportSize({ width: size, height: size });
    const source = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(`<style>html,body{margin:0;background:transparent}img{display:block}</style><img src="${source}" width="${size}" height="${size}">`);
    await page.locator('img').evaluate((img) => img.decode());
    await page.screenshot({ path: path.join(dir, 'public/icons', file), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    process.stdout.write(`public/icons/${file} (${size} × ${size})\n`);
  }
} finally {
  await browser.close();
}
