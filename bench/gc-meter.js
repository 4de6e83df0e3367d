/**
 * Preloaded (`node -r`) into the two servers the HTTP benchmark measures. Keeps the process's
 * total garbage-collection pause time, scavenges of the young generation and the rest apart, in
 * the file named by BENCH_GC_FILE, rewritten every 100 ms; the benchmark reads it before and after
 * each measured run, as it reads CPU time from /proc. Plain JavaScript, so that it loads into the
 * production build as it is. Does nothing without BENCH_GC_FILE.
 */
'use strict';
const { PerformanceObserver: Observer, constants } = require('node:perf_hooks');
const { renameSync, writeFileSync } = require('node:fs');

const file = process.env.BENCH_GC_FILE;
if (file) {
  const totals = { young_ms: 0, other_ms: 0 };
  new Observer((list) => {
    for (const entry of list.getEntries()) {
      if (entry.detail && entry.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR) totals.young_ms += entry.duration;
      else totals.other_ms += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  // Written aside and renamed into place, so that a reader never finds the file half-written.
  const write = () => {
    writeFileSync(`${file}.tmp`, JSON.stringify(totals));
    renameSync(`${file}.tmp`, file);
  };
  write();
  setInterval(write, 100).unref();
}
