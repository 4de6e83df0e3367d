/** The scale benchmark's figures: per shape and database, the summary, the ratios, the targets and the table. */
import { percentile } from './numbers';
import { formatTable, TargetResult } from './report';

/** A shape's latency summary on one database, in milliseconds (3 decimals: pages take well under a millisecond of SQL). */
export interface SqlLatency {
  runs: number;
  p50_ms: number;
  p99_ms: number;
}

/** Medians over the EXPLAIN (ANALYZE, SUMMARY) runs of the prepared statement. */
export interface ExplainTimes {
  runs: number;
  planning_ms: number;
  execution_ms: number;
}

export interface ShapeOnDatabase {
  sql: SqlLatency;
  explain: ExplainTimes;
}

export interface ScaleShapeResult {
  key: string;
  title: string;
  /** Keyed by database: `reference` is the 1M single table, `scaled` the 20M partitioned one. */
  reference: ShapeOnDatabase;
  scaled: ShapeOnDatabase;
  /** scaled ÷ reference. */
  ratio: { p50: number; p99: number; planning: number; execution: number };
}

/** The latency target: each shape's p50 at 20M partitioned within this many times its p50 at 1M in one table. */
export const SCALE_RATIO = 1.2;

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export function summariseLatency(samplesMs: number[]): SqlLatency {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return { runs: sorted.length, p50_ms: round(percentile(sorted, 0.5), 3), p99_ms: round(percentile(sorted, 0.99), 3) };
}

export function summariseExplain(runs: Array<{ planning_ms: number; execution_ms: number }>): ExplainTimes {
  return {
    runs: runs.length,
    planning_ms: round(median(runs.map((r) => r.planning_ms)), 3),
    execution_ms: round(median(runs.map((r) => r.execution_ms)), 3),
  };
}

/** `scaled ÷ reference`, 2 decimals; 0 when the reference is 0. */
export function ratioOf(scaled: number, reference: number): number {
  return reference > 0 ? round(scaled / reference, 2) : 0;
}

export function compareShape(key: string, title: string, reference: ShapeOnDatabase, scaled: ShapeOnDatabase): ScaleShapeResult {
  return {
    key,
    title,
    reference,
    scaled,
    ratio: {
      p50: ratioOf(scaled.sql.p50_ms, reference.sql.p50_ms),
      p99: ratioOf(scaled.sql.p99_ms, reference.sql.p99_ms),
      planning: ratioOf(scaled.explain.planning_ms, reference.explain.planning_ms),
      execution: ratioOf(scaled.explain.execution_ms, reference.explain.execution_ms),
    },
  };
}

export function scaleTargets(shapes: ScaleShapeResult[]): TargetResult[] {
  return shapes.map((s) => ({
    target: `${s.title}: SQL p50 at 20M partitioned ≤ ${SCALE_RATIO} × 1M single table`,
    value: `${s.ratio.p50}`,
    pass: s.ratio.p50 <= SCALE_RATIO,
  }));
}

export function scaleTable(shapes: ScaleShapeResult[]): string {
  return formatTable(
    ['Signals page, SQL (ms)', '1M p50', 'p99', 'plan', 'exec', '20M p50', 'p99', 'plan', 'exec', '÷ p50', '÷ p99', '÷ plan', '÷ exec'],
    shapes.map(({ title, reference: a, scaled: b, ratio }) => [
      title,
      a.sql.p50_ms.toFixed(3),
      a.sql.p99_ms.toFixed(3),
      a.explain.planning_ms.toFixed(3),
      a.explain.execution_ms.toFixed(3),
      b.sql.p50_ms.toFixed(3),
      b.sql.p99_ms.toFixed(3),
      b.explain.planning_ms.toFixed(3),
      b.explain.execution_ms.toFixed(3),
      ratio.p50.toFixed(2),
      ratio.p99.toFixed(2),
      ratio.planning.toFixed(2),
      ratio.execution.toFixed(2),
    ]),
  );
}
