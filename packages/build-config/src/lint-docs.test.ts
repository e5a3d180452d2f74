import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const SCRIPT = path.join(ROOT, 'scripts/lint-docs.mjs');

/** Runs scripts/lint-docs.mjs over a folder of its own (not a git checkout: every file under it is read). */
function lint(files: Record<string, string>): { status: number | null; findings: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'tm-lint-docs-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    const run = spawnSync(process.execPath, [SCRIPT, '--root', dir], { encoding: 'utf8' });
    return { status: run.status, findings: run.stdout.split('\n').filter(Boolean) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An issue reference, put together here so that this file holds none itself. */
const ISSUE = ['issue', '#7'].join(' ');

const DOCS = {
  'docs/OPERATIONS.md': '# Operations\n\n## Alerts\n\n### TaskManagerTargetDown\n',
  'docs/PRODUCT.md': '# Product\n\n## 10. Beyond the spec\n\n### 10.9 Accessibility\n',
};

describe('lint-docs (pnpm lint): references to the docs, and no issue numbers', () => {
  it('passes code that cites headings and sections that exist, and colours that look like numbers', () => {
    const run = lint({
      ...DOCS,
      'svc/a.ts': [
        '// Fired as docs/OPERATIONS.md "Alerts" says (PRODUCT §10.9), runbook docs/OPERATIONS.md#taskmanagertargetdown.',
        "export const colour = '#123'; // a colour, not an issue",
      ].join('\n'),
    });
    expect(run).toEqual({ status: 0, findings: [] });
  });

  it('fails on a heading, a section, an anchor or a document that does not exist, and on an issue number', () => {
    const run = lint({
      ...DOCS,
      'svc/b.ts': [
        '// See docs/OPERATIONS.md "Alarms".',
        '// As PRODUCT §10.99 says.',
        '// Runbook: docs/OPERATIONS.md#taskmanagernothing',
        '// Details in docs/GONE.md.',
        `// Added for ${ISSUE}.`,
      ].join('\n'),
    });
    expect(run.status).toBe(1);
    expect(run.findings).toEqual([
      'svc/b.ts:1: docs/OPERATIONS.md has no heading "Alarms"',
      'svc/b.ts:2: docs/PRODUCT.md has no section §10.99',
      'svc/b.ts:3: docs/OPERATIONS.md has no heading with the anchor #taskmanagernothing',
      'svc/b.ts:4: no such document: docs/GONE.md',
      `svc/b.ts:5: issue number: ${ISSUE}`,
    ]);
  });
});
