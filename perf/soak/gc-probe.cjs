// The soak's memory probe (perf/soak/soak.mjs), preloaded into each process it starts with
// `node --expose-gc --require perf/soak/gc-probe.cjs`; never part of `npm start`.
//
// On SIGUSR2 the process runs a full garbage collection and writes what it still holds to
// `$TM_SOAK_PROBE_DIR/<pid>.json`, numbered so the soak can tell a fresh answer from the previous one. Memory
// measured after a full collection is what the process keeps alive, without the garbage a busy process has
// not collected yet: the figure a leak moves and load alone does not.
'use strict';

const { writeFileSync, renameSync } = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');

const dir = process.env.TM_SOAK_PROBE_DIR;
if (dir && typeof global.gc === 'function') {
  let seq = 0;
  process.on('SIGUSR2', () => {
    // Two passes: the first may leave objects whose finalizers or weak callbacks free more on the second.
    global.gc();
    global.gc();
    const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, space.space_used_size]));
    seq += 1;
    const file = path.join(dir, `${process.pid}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify({ seq, rss, heapUsed, heapTotal, external, arrayBuffers, spaces }));
    renameSync(`${file}.tmp`, file);
  });
}
