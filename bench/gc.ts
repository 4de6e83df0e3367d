/** Garbage-collection pause time of a benchmarked server, as bench/gc-meter.js records it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `node -r` this into a server, with BENCH_GC_FILE set, to meter it. */
export const GC_METER = join(__dirname, 'gc-meter.js');

/** Milliseconds of pause since the process started. */
export interface GcTotals {
  young_ms: number;
  other_ms: number;
}

/** Pause per request over a measured run, in microseconds. */
export interface GcPerRequest {
  /** All collections. */
  total_us: number;
  /** Scavenges of the young generation alone. */
  young_us: number;
}

/** The totals the meter last wrote; null when there is no readable record. */
export function readGcTotals(file: string | undefined): GcTotals | null {
  if (!file) return null;
  try {
    const totals = JSON.parse(readFileSync(file, 'utf8')) as Partial<GcTotals>;
    return typeof totals.young_ms === 'number' && typeof totals.other_ms === 'number'
      ? { young_ms: totals.young_ms, other_ms: totals.other_ms }
      : null;
  } catch {
    return null;
  }
}

/** The pause between two readings; null without both. */
export function gcBetween(before: GcTotals | null, after: GcTotals | null): GcTotals | null {
  return before && after ? { young_ms: after.young_ms - before.young_ms, other_ms: after.other_ms - before.other_ms } : null;
}

/** A pause per request; null without the pause or without requests. */
export function gcPerRequest(pause: GcTotals | null, requests: number): GcPerRequest | null {
  if (!pause || requests <= 0) return null;
  const total = pause.young_ms + pause.other_ms;
  return { total_us: Math.round((total * 1000) / requests), young_us: Math.round((pause.young_ms * 1000) / requests) };
}
