#!/usr/bin/env node
// Opens a V8 .cpuprofile (node --cpu-prof, as `PROFILE_DIR=… node perf/profile/server-path.mjs` writes them)
// in speedscope, a maintained flame-graph viewer (npm `speedscope`, MIT), offline, and prints where the time
// went:
//
//   node perf/profile/speedscope.mjs <in.cpuprofile> <out-dir>
//   then open <out-dir>/flamegraph.html in a browser (Chromium: file:// is enough, no server, no network)
//
// Why speedscope (part 7): it reads .cpuprofile as V8 writes it (no conversion of ours), ships its
// whole viewer in the npm package (dist/release, one runtime dependency, `open`, unused here), and gives the
// time-ordered view, the left-heavy flame graph and the "sandwich" table (self and total per function) that a
// hand-drawn SVG did not. 0x draws from its own `--prof` runs, not from a .cpuprofile, and pulls in
// browserify; @datadog/pprof writes pprof, whose viewer (`go tool pprof`) is not on these machines.
//
// <out-dir> gets speedscope's viewer, the profile as a script it loads (speedscope's own CLI does the same,
// then opens a browser: here nothing is opened) and flamegraph.html, which points the viewer at that script
// by its absolute file:// path, wherever the folder is. Printed: self time per package and the top frames.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: speedscope.mjs <in.cpuprofile> <out-dir>');
  process.exit(2);
}
const source = readFileSync(input);
const profile = JSON.parse(source.toString('utf8'));

// The viewer: speedscope's release build, as its package ships it (the examples and source maps left out).
const release = path.join(path.dirname(createRequire(import.meta.url).resolve('speedscope/package.json')), 'dist/release');
mkdirSync(output, { recursive: true });
for (const file of readdirSync(release)) {
  if (file.endsWith('.map') || file.endsWith('.txt')) continue;
  copyFileSync(path.join(release, file), path.join(output, file));
}
// What speedscope's CLI writes for `speedscope <file>`: a script that hands the file to the viewer.
const name = path.basename(input);
writeFileSync(path.join(output, 'profile.js'), `speedscope.loadFileFromBase64(${JSON.stringify(name)}, ${JSON.stringify(source.toString('base64'))})\n`);
// The viewer loads `file:///<localProfilePath>`: the script's absolute path, read where the page is opened.
writeFileSync(
  path.join(output, 'flamegraph.html'),
  `<!DOCTYPE html>\n<meta charset="utf-8">\n<title>${name.replace(/[<&]/g, '')}</title>\n` +
    `<script>location.replace('index.html#localProfilePath=' + decodeURIComponent(new URL('profile.js', location.href).pathname).replace(/^\\/+/, ''));</script>\n`,
);

// Where the time went, in text: self time per package and per frame (idle left out: waiting is not work).
const selfUs = new Map();
profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
function where(url) {
  if (!url) return { kind: 'v8', pkg: '(v8)' };
  if (url.startsWith('node:')) return { kind: 'node', pkg: 'node:' + url.slice(5).split('/')[0] };
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 14).split('/');
    return { kind: 'lib', pkg: rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0] };
  }
  const ours = /\/(gateway|svc-todos|svc-users|packages\/[^/]+)\/dist\/(.*)$/.exec(url);
  if (ours) return { kind: 'ours', pkg: ours[1] };
  return { kind: 'other', pkg: url.split('/').slice(-2).join('/') };
}
function label(frame) {
  const fn = frame.functionName || '(anonymous)';
  const place = where(frame.url);
  if (place.kind === 'v8') return fn;
  return `${fn} ${place.kind === 'ours' || place.kind === 'lib' ? place.pkg + ' ' : ''}${frame.url.split('/').pop()}:${frame.lineNumber + 1}`;
}
const bySelf = new Map();
const byPackage = new Map();
let total = 0;
for (const node of profile.nodes) {
  if (node.callFrame.functionName === '(idle)') continue;
  const self = selfUs.get(node.id) ?? 0;
  total += self;
  const frame = label(node.callFrame);
  bySelf.set(frame, (bySelf.get(frame) ?? 0) + self);
  const pkg = where(node.callFrame.url).pkg;
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + self);
}
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, us]) => `  ${((us / Math.max(1, total)) * 100).toFixed(1).padStart(5)}%  ${key}`)
    .join('\n');
console.log(`${name}: ${(total / 1000).toFixed(0)} ms of CPU sampled (idle excluded)\nself time by package:\n${top(byPackage, 12)}\ntop frames by self time:\n${top(bySelf, 20)}`);
console.log(`flame graph: open ${path.resolve(output, 'flamegraph.html')} in a browser (speedscope, offline)`);
