// The build's size check (the first load): after each production build it sums the gzipped
// JavaScript (level 6, as nginx and koa-compress send it) that the app adds to a cold load, and fails the
// build when that is over the app's budget (`budgets.firstLoadGzipKiB` in the app's package.json). The
// shell's share plus a remote's share is what Chromium fetches for a screen (`node perf/bench/bench-web.mjs`).
// CommonJS so that both the ESM Rspack configuration and the jest test load it.
const { gzipSync } = require('node:zlib');

const PLUGIN = 'FirstLoadBudgetPlugin';
const EXPOSE_GROUP = '__federation_expose_';
const PROVIDED_SHARED = 'provide shared module';

/** @param {string[]} files */
const scripts = (files) => files.filter((file) => file.endsWith('.js'));
/** @param {{ name: string }[]} assets */
const names = (assets) => assets.map((asset) => asset.name);

/**
 * The scripts of each first load this build takes part in, read from its stats (entry points, chunk
 * groups and chunk origins), never from a hand-kept list.
 * - A remote (`container` is its federation name): its remote entry plus the chunks of one exposed page,
 *   for each page. Shared modules are not its share: the host provides them.
 * - The host: its entry's chunks, the chunks its entry module imports (the async boundary before the
 *   shared modules are negotiated) and the shared modules it provides, which every screen uses.
 * @param {import('@rspack/core').StatsCompilation} stats
 * @param {string | undefined} container
 * @returns {{ page: string, files: string[] }[]}
 */
function firstLoads(stats, container) {
  const entrypoints = stats.entrypoints ?? {};
  if (container) {
    const entry = scripts(names(entrypoints[container]?.assets ?? []));
    return Object.entries(stats.namedChunkGroups ?? {})
      .filter(([name]) => name.startsWith(EXPOSE_GROUP))
      .map(([name, group]) => ({ page: name.slice(EXPOSE_GROUP.length), files: [...entry, ...scripts(names(group.assets ?? []))] }));
  }
  const chunks = stats.chunks ?? [];
  const entryChunks = new Set(entrypoints.main?.chunks ?? []);
  const entryModules = new Set(chunks.filter((chunk) => entryChunks.has(chunk.id)).flatMap((chunk) => (chunk.origins ?? []).map((origin) => origin.request)));
  const loaded = chunks.filter(
    (chunk) =>
      entryChunks.has(chunk.id) ||
      (chunk.origins ?? []).some((origin) => entryModules.has(origin.moduleName) || origin.moduleName?.startsWith(PROVIDED_SHARED)),
  );
  return [{ page: 'main', files: [...new Set(loaded.flatMap((chunk) => scripts(chunk.files ?? [])))] }];
}

/** Gzipped size in bytes of one emitted file. @param {Buffer} content */
const gzipBytes = (content) => gzipSync(content, { level: 6 }).length;

const kib = (bytes) => (bytes / 1024).toFixed(1);

/**
 * Measures each first load against the budget; returns the lines to print and the error, if any.
 * @param {{ app: string, budgetKiB: number, loads: { page: string, files: string[] }[], sizeOf: (file: string) => number }} input
 */
function checkBudget({ app, budgetKiB, loads, sizeOf }) {
  const lines = [];
  const over = [];
  for (const { page, files } of loads) {
    const sized = files.map((file) => ({ file, gzip: sizeOf(file) }));
    const total = sized.reduce((sum, { gzip }) => sum + gzip, 0);
    const label = loads.length > 1 || page !== 'main' ? `${app} (${page})` : app;
    lines.push(`${label}: first load ${kib(total)} KiB gzipped in ${files.length} scripts, budget ${budgetKiB} KiB`);
    if (total > budgetKiB * 1024) {
      over.push(
        [
          `${label} adds ${kib(total)} KiB of gzipped JavaScript to a first load, over its budget of ${budgetKiB} KiB ` +
            `(budgets.firstLoadGzipKiB in ${app}/package.json). Largest scripts:`,
          ...sized
            .sort((a, b) => b.gzip - a.gzip)
            .map(({ file, gzip }) => `  ${kib(gzip).padStart(6)} KiB  ${file}`),
        ].join('\n'),
      );
    }
  }
  return { lines, error: over.length ? over.join('\n') : undefined };
}

class FirstLoadBudgetPlugin {
  /** @param {{ app: string, budgetKiB: number, container?: string }} options */
  constructor(options) {
    if (!(options.budgetKiB > 0)) throw new Error(`${options.app}: package.json needs budgets.firstLoadGzipKiB (a number of KiB)`);
    this.options = options;
  }

  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    const logger = compiler.getInfrastructureLogger(PLUGIN);
    compiler.hooks.afterEmit.tap(PLUGIN, (compilation) => {
      const stats = compilation.getStats().toJson({ all: false, entrypoints: true, chunkGroups: true, chunks: true, chunkOrigins: true, ids: true });
      const sizeOf = (file) => {
        const asset = compilation.getAsset(file);
        if (!asset) throw new Error(`${PLUGIN}: ${file} is in the stats but was not emitted`);
        return gzipBytes(asset.source.buffer());
      };
      const { lines, error } = checkBudget({ ...this.options, loads: firstLoads(stats, this.options.container), sizeOf });
      for (const line of lines) logger.info(line);
      this.over = Boolean(error);
      if (error) compilation.errors.push(new compiler.webpack.WebpackError(error));
    });
    // An over-budget build leaves nothing that could be published: its output folder goes, once
    // every plugin has written what it writes (the manifest, remote.json, the compressed copies).
    compiler.hooks.done.tap(PLUGIN, () => {
      if (!this.over) return;
      require('node:fs').rmSync(compiler.outputPath, { recursive: true, force: true });
      logger.error(`removed ${compiler.outputPath}: a build over its first-load budget is not publishable`);
    });
  }
}

module.exports = { FirstLoadBudgetPlugin, firstLoads, checkBudget };

