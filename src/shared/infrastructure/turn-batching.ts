import type { Options } from 'dataloader';

/**
 * DataLoader options for batching the calls made in one turn of the event loop (the jobs a worker
 * runs side by side reach each statement at about the same time) into one statement. Nothing is
 * cached: every call reads or writes the database as it is now.
 */
export function turnBatching<K, V>(maxBatchSize = 64): Options<K, V> {
  return { cache: false, maxBatchSize, batchScheduleFn: (run) => setImmediate(run) };
}

/** Groups a batch's items by a string key (e.g. the workspace), keeping their order. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
