#!/usr/bin/env node
// `node scripts/lint-docs.mjs [--root <dir>] [--json]`: checks every text file git tracks or would track (code, tests,
// docs, yaml; not node_modules, dist or lockfiles) for
//   (a) references to documentation that does not exist: a `.md` file that is not there, or a heading of
//       one that it does not have, in the forms the code and docs use:
//         docs/OPERATIONS.md "Alerts"      SECURITY.md, "Throttling"      PRODUCT §10.9
//         docs/PRODUCT.md §10.11.4 and §10.11.5      OPERATIONS.md#taskmanagertargetdown   [text](../x.md#anchor)
//   (b) issue numbers (N being digits): `issue #N`, `issues #N and #N`, `PR #N`, `fixes #N`, `(#N)`, `(issue #N)`, and a
//       comment that starts with `#N:`. CSS colours (`#123`, `#fff`) and URL fragments are not issue numbers.
// Prints `file:line: message` for each finding and exits 1 when there is one; 0 otherwise.
// Outside a git checkout (a copy), every file under the root is read, skipping node_modules, dist and .git.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..') },
    json: { type: 'boolean', default: false },
  },
});
const ROOT = path.resolve(args.root);

/**
 * Folders and files never read: dependencies, builds, lockfiles, binaries, and this check and its test,
 * whose examples of broken references are there on purpose.
 */
const SKIP_DIR = /(^|\/)(node_modules|dist|\.git|\.data|coverage)(\/|$)/;
const SKIP_FILE = /^(scripts\/lint-docs\.mjs|packages\/build-config\/src\/lint-docs\.test\.ts)$|(^|\/)(pnpm-lock\.yaml|package-lock\.json|yarn\.lock)$|\.(png|jpe?g|gif|webp|ico|mp3|wav|woff2?|ttf|otf|gz|br|zip|tgz|pdf|sqlite|cpuprofile)$/i;

function trackedFiles() {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 2 ** 20 });
    return out.split('\0').filter(Boolean).filter((file) => existsSync(path.join(ROOT, file)));
  } catch {
    const files = [];
    const walk = (dir) => {
      for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const rel = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (!SKIP_DIR.test(rel)) walk(rel);
        } else if (entry.isFile()) files.push(rel);
      }
    };
    walk('');
    return files;
  }
}

const files = trackedFiles().filter((file) => !SKIP_DIR.test(file) && !SKIP_FILE.test(file));
const mdFiles = new Set(files.filter((file) => file.endsWith('.md')));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes (as deploy/checks do). */
export function anchorOf(heading) {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

/** A heading's plain text: no emphasis, code marks or link syntax. */
const plain = (text) => text.replace(/`/g, '').replace(/\*\*|__/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim();

const headingCache = new Map();
/** The headings of a Markdown file (outside fenced code): text, anchor, section number. */
function headingsOf(file) {
  if (headingCache.has(file)) return headingCache.get(file);
  const headings = [];
  const seen = new Map();
  let fence = null;
  let section;
  for (const line of readFileSync(path.join(ROOT, file), 'utf8').split('\n')) {
    const marker = /^\s*(```+|~~~+)/.exec(line);
    if (marker) {
      if (!fence) fence = marker[1][0];
      else if (marker[1][0] === fence) fence = null;
      continue;
    }
    if (fence) continue;
    const match = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!match) {
      // A numbered section's top-level numbered list items are its sub-sections: item 4 of §10.11 is §10.11.4.
      const item = /^(\d+)\.\s/.exec(line);
      if (item && section) headings.push({ text: '', anchor: undefined, number: `${section}.${item[1]}` });
      continue;
    }
    const text = plain(match[1]);
    const base = anchorOf(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(text)?.[1];
    section = number;
    headings.push({ text, anchor: count === 0 ? base : `${base}-${count}`, number });
  }
  headingCache.set(file, headings);
  return headings;
}

/**
 * The Markdown file a reference names, from the file that makes it: next to it, then from the root, then
 * in docs/, then the only tracked file of that name. Undefined when there is none.
 */
function resolveDoc(from, ref) {
  const clean = ref.replace(/^\/+/, '');
  const candidates = [path.posix.normalize(path.posix.join(path.posix.dirname(from), ref)), path.posix.normalize(clean), `docs/${path.posix.basename(clean)}`];
  for (const candidate of candidates) if (mdFiles.has(candidate)) return candidate;
  if (!clean.includes('/')) {
    const same = [...mdFiles].filter((file) => path.posix.basename(file) === clean);
    if (same.length >= 1) return same.find((file) => !file.includes('/')) ?? same[0];
  }
  return undefined;
}

/** True when `cited` names a heading of `file`: the same text, or the start of it up to punctuation. */
function hasHeading(file, cited) {
  const want = plain(cited).toLowerCase();
  return headingsOf(file).some(({ text }) => {
    if (!text) return false;
    // "Release" names "5. Release": a numbered step's number is not part of its name.
    const have = text.toLowerCase().replace(/^\d+(?:\.\d+)*\.?\s+/, '');
    return have === want || text.toLowerCase() === want || (have.startsWith(want) && /^[\s(:,.—–-]/.test(have.slice(want.length)));
  });
}
const hasAnchor = (file, anchor) => headingsOf(file).some((heading) => heading.anchor !== undefined && heading.anchor === anchor.toLowerCase());
const hasNumber = (file, number) => headingsOf(file).some((heading) => heading.number === number);

const findings = [];
const report = (file, line, message) => findings.push({ file, line, message });

// A path ending in .md, as code and docs write it; not a URL, a glob or a template.
const MD_REF = /(?<![\w@$*{<./-])((?:\.{1,2}\/|\/)?(?:[\w.@-]+\/)*[\w.@-]+\.md)(?![\w-])/g;
const SECTION_LIST = /^\s*(§\s?\d+(?:\.\d+)*(?:(?:\s*,\s*|\s+and\s+|\s+or\s+|\s*\/\s*|\s*–\s*|\s+to\s+)§\s?\d+(?:\.\d+)*)*)/;
const PRODUCT_SECTIONS = /\bPRODUCT(?!\.md)\s*((?:§\s?\d+(?:\.\d+)*)(?:(?:\s*,\s*|\s+and\s+|\s+or\s+|\s*\/\s*|\s*–\s*|\s+to\s+)§\s?\d+(?:\.\d+)*)*)/g;

function checkSections(file, lineNo, doc, list) {
  for (const [, number] of list.matchAll(/§\s?(\d+(?:\.\d+)*)/g)) {
    const trimmed = number.replace(/\.$/, '');
    if (!hasNumber(doc, trimmed)) report(file, lineNo, `${doc} has no section §${trimmed}`);
  }
}

function checkReferences(file, lineNo, line) {
  for (const match of line.matchAll(MD_REF)) {
    const ref = match[1];
    const before = line.slice(0, match.index);
    // URLs (https://…/README.md), globs and placeholders are not references to a file of this repository.
    if (/[a-z][\w+.-]*:\/\/\S*$/i.test(before) || /[*<>{}$]/.test(ref)) continue;
    const doc = resolveDoc(file, ref);
    if (!doc) {
      report(file, lineNo, `no such document: ${ref}`);
      continue;
    }
    const after = line.slice(match.index + ref.length);
    const anchor = /^#([\w-]+)/.exec(after);
    if (anchor) {
      if (!hasAnchor(doc, anchor[1])) report(file, lineNo, `${doc} has no heading with the anchor #${anchor[1]}`);
      continue;
    }
    // `X.md "Heading"`, `X.md, "Heading"`, `X.md ("Heading")`, also with typographic quotes.
    const quoted = /^[,:]?\s*\(?\s*["“]([^"”\n]+)["”]/.exec(after);
    if (quoted) {
      if (!hasHeading(doc, quoted[1])) report(file, lineNo, `${doc} has no heading "${quoted[1]}"`);
      continue;
    }
    const sections = SECTION_LIST.exec(after);
    if (sections) checkSections(file, lineNo, doc, sections[1]);
  }
  const product = resolveDoc(file, 'docs/PRODUCT.md');
  for (const match of line.matchAll(PRODUCT_SECTIONS)) {
    if (!product) report(file, lineNo, 'no such document: docs/PRODUCT.md');
    else checkSections(file, lineNo, product, match[1]);
  }
}

// Issue numbers. Words that introduce one, then `#<digits>` (and any `#<digits>` listed after it).
const ISSUE_WORDS = /\b(?:issues?|pull requests?|PRs?|fix(?:es|ed)?|close[sd]?|resolve[sd]?|tickets?|bugs?)\s*#\d+\b/i;
// `(#N)`, `(#N, #N)`, `(see #N)`: a parenthesis holding only issue numbers (and a leading word or two).
const PAREN_ISSUE = /\((?:[a-z]+\s+){0,2}#\d+(?:\s*(?:,|and|or|\/)\s*#\d+)*\)/i;
// A comment whose text starts with `#N:` or `#N -` (the JS, CSS, shell/YAML and HTML comment forms).
const COMMENT_ISSUE = /(?:^|\s)(?:\/\/+|\/\*+|\*|#|<!--)\s*#\d+\s*(?::|-\s)/;

// An issue number wrapped onto the next line: `(issue` at the end of one line, `#N)` starting the next.
const WRAPPED_ISSUE = /^\s*(?:\/\/+|\/\*+|\*|#|<!--)?\s*#\d+\b/;

function checkIssues(file, lineNo, line, previous) {
  if (WRAPPED_ISSUE.test(line) && /\b(?:issues?|PRs?|pull requests?)\s*$/i.test(previous)) {
    report(file, lineNo, `issue number (wrapped from the line before): ${/#\d+/.exec(line)[0]}`);
    return;
  }
  const isStyle = /\.(css|scss|svg|html?)$/i.test(file);
  const paren = PAREN_ISSUE.exec(line);
  // `url` in SVG/CSS points at an element id; `(#fff)`-like colours have letters and fail the pattern.
  const parenIsIssue = paren && !/url$/i.test(line.slice(0, paren.index)) && !(isStyle && /^\(#(?:\d{3}|\d{4}|\d{6}|\d{8})\)$/.test(paren[0]));
  if (ISSUE_WORDS.test(line) || parenIsIssue || COMMENT_ISSUE.test(line)) {
    const found = (ISSUE_WORDS.exec(line) ?? (parenIsIssue ? paren : null) ?? COMMENT_ISSUE.exec(line))[0].trim();
    report(file, lineNo, `issue number: ${found}`);
  }
}

for (const file of files) {
  const full = path.join(ROOT, file);
  if (!statSync(full).isFile()) continue;
  const buffer = readFileSync(full);
  if (buffer.includes(0)) continue; // binary
  const lines = buffer.toString('utf8').split('\n');
  lines.forEach((line, index) => {
    checkReferences(file, index + 1, line);
    checkIssues(file, index + 1, line, lines[index - 1] ?? '');
  });
}

if (args.json) {
  process.stdout.write(`${JSON.stringify({ files: files.length, findings })}\n`);
} else {
  for (const { file, line, message } of findings) console.log(`${file}:${line}: ${message}`);
  console.error(findings.length === 0 ? `lint-docs: ${files.length} files, no broken reference and no issue number` : `lint-docs: ${findings.length} problem(s) in ${new Set(findings.map((f) => f.file)).size} file(s)`);
}
process.exit(findings.length === 0 ? 0 : 1);
