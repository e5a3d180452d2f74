import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The workspace's own Rspack CLI (a root dev dependency; its package exports do not list the bin file).
const RSPACK_CLI = path.resolve(__dirname, '../../../node_modules/@rspack/cli/bin/rspack.js');
const PLUGIN = path.join(__dirname, '..', 'first-load-budget.cjs');

/**
 * `rspack build --mode production` (as `pnpm build` runs it) of a tiny host with the size check: an entry
 * that imports its app behind an async boundary, as the shell does, and a lazy chunk the app never needs
 * at start-up. The check must count the first two and not the third.
 */
function build(budgetKiB: number): { status: number | null; output: string; distLeft: boolean } {
  const dir = mkdtempSync(path.join(tmpdir(), 'first-load-budget-'));
  try {
    writeFileSync(path.join(dir, 'index.js'), "import('./bootstrap');\n");
    // Random digits hardly compress: about 8 KiB gzipped on the first load, twice that in the lazy chunk.
    const digits = Array.from({ length: 20_000 }, () => Math.floor(Math.random() * 10)).join('');
    writeFileSync(path.join(dir, 'bootstrap.js'), `export const digits = '${digits}';\nconsole.log(digits.length);\nimport('./later');\n`);
    writeFileSync(path.join(dir, 'later.js'), `export const later = '${digits}${digits}';\nconsole.log(later.length);\n`);
    writeFileSync(
      path.join(dir, 'rspack.config.mjs'),
      [
        `import budget from ${JSON.stringify(PLUGIN)};`,
        'export default {',
        `  context: ${JSON.stringify(dir)},`,
        "  entry: { main: './index.js' },",
        '  devtool: false,',
        `  output: { path: ${JSON.stringify(path.join(dir, 'dist'))} },`,
        `  plugins: [new budget.FirstLoadBudgetPlugin({ app: 'tiny-app', budgetKiB: ${budgetKiB} })],`,
        '};',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, [RSPACK_CLI, 'build', '--mode', 'production', '-c', path.join(dir, 'rspack.config.mjs')], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      timeout: 60_000,
    });
    return { status: run.status, output: `${run.stdout}${run.stderr}`, distLeft: existsSync(path.join(dir, 'dist')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the first-load size check of the build', () => {
  it('fails the build when the first load is over the budget, naming the app, the sizes and the largest scripts', () => {
    const { status, output, distLeft } = build(5);
    expect(status).not.toBe(0);
    // Nothing publishable is left behind.
    expect(distLeft).toBe(false);
    expect(output).toContain('a build over its first-load budget is not publishable');
    const match = /tiny-app adds (\d+\.\d) KiB of gzipped JavaScript to a first load, over its budget of 5 KiB/.exec(output);
    expect(match).not.toBeNull();
    expect(output).toContain('budgets.firstLoadGzipKiB in tiny-app/package.json');
    // The entry and the chunk behind the async boundary (~8 KiB); the lazy chunk (~16 KiB more) is not counted.
    const first = Number(match?.[1]);
    expect(first).toBeGreaterThan(7);
    expect(first).toBeLessThan(12);
    expect(output).toMatch(/\d+\.\d KiB {2}\S+\.js/);
  }, 60_000);

  it('lets a build within the budget pass, and says what it measured', () => {
    const { status, output, distLeft } = build(15);
    expect(output).toMatch(/tiny-app: first load \d+\.\d KiB gzipped in 2 scripts, budget 15 KiB/);
    expect(status).toBe(0);
    expect(distLeft).toBe(true);
  }, 60_000);
});
