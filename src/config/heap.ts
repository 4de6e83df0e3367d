import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full collection before it
 * collects again, as a percentage (a factor of 1 + percent/100).
 *
 * V8 chooses that factor itself, up to 4× on a machine with 2 GB of heap or more (every server),
 * and under load it sits at 4×: the API's live heap is about 40 MB, but each busy connection keeps
 * a page of rows and its JSON alive across young collections, so they reach the old generation
 * and the process grows to 300–350 MB of RSS before a full collection clears them. At 2.1× the
 * peak is about 255–300 MB on the busiest lists of a slower machine and 315–360 MB on a faster
 * one, 15–40 MB under 2.5×; the price is more full collections, up to a tenth of a short page's
 * CPU on the faster machine (docs/performance.md, "RSS"). At 1.8× about 200–225 MB, for 3–5 %
 * more CPU per request.
 */
export const HEAP_GROWING_PERCENT = 110;

const GROWTH_FLAGS = /--(heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size|max[-_]heap[-_]size)\b/;

/**
 * The flag to set, or null when the operator has chosen the heap's size or growth already (in the
 * command line or NODE_OPTIONS): their choice stands.
 */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | null {
  const chosen = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((arg) => GROWTH_FLAGS.test(arg));
  return chosen ? null : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/** Applies `heapGrowthFlag` to this process. V8 reads the flag at every full collection. */
export function limitHeapGrowth(): void {
  const flag = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) setFlagsFromString(flag);
}
