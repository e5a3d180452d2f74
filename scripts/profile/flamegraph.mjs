#!/usr/bin/env node
// Turns a V8 .cpuprofile (node --cpu-prof) into a flame graph SVG and prints where the time went:
//
//   node scripts/profile/flamegraph.mjs <in.cpuprofile> <out.svg> [title]
//
// Works offline with nothing but Node. Frames are merged by (function, file, line) under the same parent,
// idle time is left out (it is waiting, not work), and every frame has a <title> tooltip with its share.
// Colours: our code (gateway, svc-*, packages) green, node_modules orange, Node's own internals blue, V8
// (GC, program) grey. Printed: the top frames by self time and the self time per package.
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output, title = input] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: flamegraph.mjs <in.cpuprofile> <out.svg> [title]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(input, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

// Self time per profile node, from the sample stream.
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
  if (ours) return { kind: 'ours', pkg: ours[1], file: ours[2] };
  return { kind: 'other', pkg: url.split('/').slice(-2).join('/') };
}

function label(frame) {
  const name = frame.functionName || '(anonymous)';
  const place = where(frame.url);
  if (place.kind === 'v8') return name;
  const file = frame.url.split('/').pop();
  return `${name} ${place.kind === 'ours' ? place.pkg + '/' : place.kind === 'lib' ? place.pkg + ' ' : ''}${file}:${frame.lineNumber + 1}`;
}

// A merged tree: children keyed by label, so recursion through identical frames adds up.
function build(id) {
  const node = nodes.get(id);
  const merged = { name: label(node.callFrame), kind: where(node.callFrame.url).kind, self: selfUs.get(id) ?? 0, total: 0, children: new Map() };
  for (const childId of node.children ?? []) {
    const child = build(childId);
    if (child.name === '(idle)') continue;
    const existing = merged.children.get(child.name);
    if (existing) mergeInto(existing, child);
    else merged.children.set(child.name, child);
  }
  merged.total = merged.self + [...merged.children.values()].reduce((sum, child) => sum + child.total, 0);
  return merged;
}
function mergeInto(target, source) {
  target.self += source.self;
  target.total += source.total;
  for (const [name, child] of source.children) {
    const existing = target.children.get(name);
    if (existing) mergeInto(existing, child);
    else target.children.set(name, child);
  }
}
const root = build(profile.nodes[0].id);
root.name = 'all (idle excluded)';

// Layout: x by share of the total, one row per depth, root at the bottom (a flame graph).
const WIDTH = 1200;
const ROW = 17;
const MIN_WIDTH = 0.3;
let depthMax = 0;
const rects = [];
function place(node, x, depth) {
  const width = (node.total / root.total) * WIDTH;
  if (width < MIN_WIDTH) return;
  depthMax = Math.max(depthMax, depth);
  rects.push({ node, x, depth, width });
  let childX = x;
  for (const child of [...node.children.values()].sort((a, b) => b.total - a.total)) {
    place(child, childX, depth + 1);
    childX += (child.total / root.total) * WIDTH;
  }
}
place(root, 0, 0);
const HEADER = 40;
const height = HEADER + (depthMax + 1) * ROW + 10;
const COLORS = { ours: [60, 170, 90], lib: [230, 140, 50], node: [80, 140, 210], v8: [150, 150, 150], other: [200, 90, 160] };
const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
function colour(kind, name) {
  const [r, g, b] = COLORS[kind];
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) & 0xff;
  const shift = (hash % 40) - 20;
  return `rgb(${Math.max(0, Math.min(255, r + shift))},${Math.max(0, Math.min(255, g + shift))},${Math.max(0, Math.min(255, b + shift))})`;
}
const ms = (us) => `${(us / 1000).toFixed(0)} ms`;
const svg = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Verdana, sans-serif" font-size="11">`,
  `<rect width="100%" height="100%" fill="#fdfdf8"/>`,
  `<text x="6" y="16" font-size="14">${escape(title)}</text>`,
  `<text x="6" y="32" fill="#555">${ms(root.total)} of CPU sampled (idle excluded). Green: our code, orange: node_modules, blue: Node internals, grey: V8. Width = share of CPU time; hover for figures.</text>`,
];
for (const { node, x, depth, width } of rects) {
  const y = height - 10 - (depth + 1) * ROW;
  const share = ((node.total / root.total) * 100).toFixed(1);
  svg.push(`<g><title>${escape(node.name)}: ${share}% (${ms(node.total)} total, ${ms(node.self)} self)</title>` +
    `<rect x="${x.toFixed(2)}" y="${y}" width="${Math.max(0.1, width - 0.3).toFixed(2)}" height="${ROW - 1}" fill="${colour(node.kind, node.name)}" rx="1"/>` +
    (width > 40 ? `<text x="${(x + 3).toFixed(2)}" y="${y + 12}">${escape(node.name.slice(0, Math.floor((width - 6) / 6.6)))}</text>` : '') + '</g>');
}
svg.push('</svg>');
writeFileSync(output, `${svg.join('\n')}\n`);

// Text summary: top self time by frame and by package.
const bySelf = new Map();
const byPackage = new Map();
for (const node of profile.nodes) {
  const self = selfUs.get(node.id) ?? 0;
  if (node.callFrame.functionName === '(idle)') continue;
  const name = label(node.callFrame);
  bySelf.set(name, (bySelf.get(name) ?? 0) + self);
  const pkg = where(node.callFrame.url).pkg;
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + self);
}
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n)
  .map(([name, us]) => `  ${((us / root.total) * 100).toFixed(1).padStart(5)}%  ${name}`).join('\n');
console.log(`${title}: ${ms(root.total)} sampled\nself time by package:\n${top(byPackage, 12)}\ntop frames by self time:\n${top(bySelf, 20)}`);
