import { DataSource } from 'typeorm';
import { dropExpired, ensurePartitions, PartitionMaintenance, readLayout, Sql } from '../../src/database/partition-maintenance';
import {
  addPeriods,
  initialPartitionsSql,
  PartitionedTable,
  partitionName,
  periodStart,
  SIGNAL_PARTITIONS,
  timestampBoundary,
} from '../../src/database/partitions';
import { signalsPageSql } from '../../src/modules/signals/signals.repository';
import { ids } from '../../src/shared/domain/ids';
import { walkList } from '../support/list-walk';
import { insertBuyer, insertSignals } from '../support/read-model-fixtures';
import { internalId } from '../support/worker-process';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

let t: TestApp;
let ds: DataSource;
let sql: Sql;

beforeAll(async () => {
  t = await startTestApp({ RUN_WORKERS: 'true', SIGNAL_RETENTION_MONTHS: '120' });
  ds = t.app.get(DataSource);
  sql = (text, values) => ds.query(text, values);
});

/** Maintenance statements on a connection of their own, as a process runs them (they use transactions). */
async function onOwnConnection<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
  const runner = ds.createQueryRunner();
  try {
    return await work((text, values) => runner.query(text, values));
  } finally {
    await runner.release();
  }
}

afterAll(() => t?.close());

const utc = (text: string) => new Date(`${text}Z`);

/** Every partition of `table` with its bounds, in bound order. */
async function bounds(table: string): Promise<Array<{ name: string; bound: string }>> {
  return ds.query(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass ORDER BY c.relname = '${table}_min' DESC, c.relname`,
    [table],
  );
}

/** A partitioned table of its own, laid out like the Signals, for tests that move its bounds. */
async function scratchTable(unit: PartitionedTable['unit'], first: Date, last: Date): Promise<PartitionedTable> {
  const spec: PartitionedTable = { table: `scratch_${ids.next()}`, unit, column: 'at', ahead: 2, boundary: timestampBoundary };
  await ds.query(`CREATE TABLE ${spec.table} (id bigint NOT NULL, at timestamptz NOT NULL, PRIMARY KEY (id, at)) PARTITION BY RANGE (at)`);
  for (const statement of initialPartitionsSql(spec, first, last)) await ds.query(statement);
  return spec;
}

/** The table's rows: how many, and a checksum of them all. */
async function contents(table: string): Promise<{ count: string; checksum: string }> {
  const [row] = await ds.query(
    `SELECT count(*)::text AS count, coalesce(sum(hashtextextended(t::text, 0)), 0)::text AS checksum FROM ${table} t`,
  );
  return row;
}

/** Consecutive ranges from MINVALUE to MAXVALUE, each period where its name says. */
function expectContiguous(layout: Array<{ name: string; bound: string }>, table: string): void {
  const ranges = layout.map(({ name, bound }) => {
    const match = /^FOR VALUES FROM \((.+)\) TO \((.+)\)$/.exec(bound);
    if (!match) throw new Error(`Not a range partition: ${name} ${bound}`);
    return { name, from: match[1], to: match[2] };
  });
  ranges.sort((a, b) =>
    a.from === 'MINVALUE' ? -1 : b.from === 'MINVALUE' ? 1 : Date.parse(a.from.slice(1, -1)) - Date.parse(b.from.slice(1, -1)),
  );
  expect(ranges[0]).toMatchObject({ name: `${table}_min`, from: 'MINVALUE' });
  expect(ranges[ranges.length - 1]).toMatchObject({ name: `${table}_max`, to: 'MAXVALUE' });
  for (let i = 1; i < ranges.length; i++) expect(Date.parse(ranges[i].from.slice(1, -1))).toBe(Date.parse(ranges[i - 1].to.slice(1, -1)));
}

describe('the Signals table', () => {
  it('is partitioned by month of captured_at, with MINVALUE and MAXVALUE catch-alls and no DEFAULT partition', async () => {
    const [{ kind, key }] = await ds.query(
      `SELECT c.relkind AS kind, pg_get_partkeydef(c.oid) AS key FROM pg_class c WHERE c.oid = 'signals'::regclass`,
    );
    expect({ kind, key }).toEqual({ kind: 'p', key: 'RANGE (captured_at)' });
    const layout = await bounds('signals');
    expect(layout.some((p) => p.bound === 'DEFAULT')).toBe(false);
    expectContiguous(layout, 'signals');
    // The current month and three ahead are ready at start-up.
    const current = periodStart('month', new Date());
    for (let n = 0; n <= SIGNAL_PARTITIONS.ahead; n++) {
      expect(layout.map((p) => p.name)).toContain(partitionName(SIGNAL_PARTITIONS, addPeriods('month', current, n)));
    }
  });

  it('keeps its keys unique per workspace with captured_at, and one Signal per activity', async () => {
    const keys = await ds.query(
      `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def FROM pg_index
        WHERE indrelid = 'signals'::regclass AND indisunique ORDER BY 1`,
    );
    expect(keys.map((k: { def: string }) => k.def.replace(/^.* USING btree /, ''))).toEqual([
      '(workspace_id, activity_id, captured_at) WHERE (activity_id IS NOT NULL)',
      '(workspace_id, id, captured_at)',
    ]);
  });

  it('pages a workspace and a Buyer through Signals spread over many months, each exactly once, in order', async () => {
    const ws = await t.newWorkspace();
    const buyers = [await insertBuyer(ds, ws.workspace_id), await insertBuyer(ds, ws.workspace_id)];
    // Two years back (below the oldest month: into signals_min) to two months ahead.
    const start = addPeriods('month', periodStart('month', new Date()), -26);
    const inputs = Array.from({ length: 60 }, (_, i) => ({
      buyer_id: buyers[i % 2].id,
      type: 'website' as const,
      trigger: 'visited_page',
      captured_at: new Date(start.getTime() + i * 14 * 86_400_000 + (i % 3) * 1000),
    }));
    const signals = await insertSignals(ds, ws.workspace_id, inputs);
    const newestFirst = [...signals].sort((a, b) => b.captured_at.getTime() - a.captured_at.getTime() || (b.id < a.id ? -1 : 1));

    const walk = async (query: Record<string, string>, limit: number) =>
      (await walkList<{ id: string }>(t.http, ws.auth, '/v1/signals', query, [limit])).items.map((s) => s.id);
    expect(await walk({}, 7)).toEqual(newestFirst.map((s) => s.public_id));
    expect(await walk({ sort_order: 'asc' }, 5)).toEqual([...newestFirst].reverse().map((s) => s.public_id));
    expect(await walk({ buyer_id: buyers[1].public_id }, 4)).toEqual(
      newestFirst.filter((s) => s.buyer_id === buyers[1].id).map((s) => s.public_id),
    );
  });

  it('reads only the months a deep page and a Buyer page can find rows in', async () => {
    const partitionsRead = async (query: { sql: string; params: unknown[] }): Promise<string[]> => {
      const [{ 'QUERY PLAN': plan }] = await ds.query(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.params);
      const names = new Set<string>();
      const visit = (node: Record<string, unknown>) => {
        if (typeof node['Relation Name'] === 'string') names.add(node['Relation Name']);
        for (const child of (node.Plans as Array<Record<string, unknown>>) ?? []) visit(child);
      };
      visit(plan[0].Plan);
      return [...names].filter((name) => name !== 'buyers').sort();
    };
    const current = periodStart('month', new Date());
    const months = (await readLayout(sql, SIGNAL_PARTITIONS)).periods.map((p) => p.name);
    // The migration of an empty table starts the months at the current one: the MINVALUE partition holds all before.
    const cursorMonth = addPeriods('month', current, 1);
    const deep = signalsPageSql('1', { order: 'desc' }, { at: new Date(cursorMonth.getTime() + 86_400_000), id: '5' }, 100);
    const olderOrSame = months.filter((name) => name <= partitionName(SIGNAL_PARTITIONS, cursorMonth));
    expect(await partitionsRead(deep)).toEqual(['signals_min', ...olderOrSame].sort());
    const ascending = signalsPageSql('1', { order: 'asc' }, { at: new Date(cursorMonth.getTime() + 86_400_000), id: '5' }, 100);
    const newerOrSame = months.filter((name) => name >= partitionName(SIGNAL_PARTITIONS, cursorMonth));
    expect(await partitionsRead(ascending)).toEqual(['signals_max', ...newerOrSame].sort());
    const range = signalsPageSql(
      '1',
      { order: 'desc', capturedAfter: current, capturedBefore: addPeriods('month', current, 1) },
      null,
      100,
    );
    expect(await partitionsRead(range)).toEqual([partitionName(SIGNAL_PARTITIONS, current)]);

    // A Buyer's page: the months outside its first and last Signal are skipped when it runs.
    const ws = await t.newWorkspace();
    const buyer = await insertBuyer(ds, ws.workspace_id);
    const at = new Date(current.getTime() + 3_600_000);
    await insertSignals(
      ds,
      ws.workspace_id,
      [0, 1, 2].map((i) => ({ buyer_id: buyer.id, type: 'website', trigger: 'visited_page', captured_at: new Date(at.getTime() + i) })),
    );
    const page = signalsPageSql(internalId(ws.workspace_id), { order: 'desc', buyerId: buyer.id }, null, 100);
    const [{ 'QUERY PLAN': analysed }] = await ds.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${page.sql}`, page.params);
    const executed = new Set<string>();
    const visit = (node: Record<string, unknown>) => {
      if (typeof node['Relation Name'] === 'string' && Number(node['Actual Loops']) > 0) executed.add(node['Relation Name']);
      for (const child of (node.Plans as Array<Record<string, unknown>>) ?? []) visit(child);
    };
    visit(analysed[0].Plan);
    expect([...executed].sort()).toEqual(['buyers', partitionName(SIGNAL_PARTITIONS, current)]);
  });

  it('is maintained by the workers’ processes, and a run with its months ready changes nothing', async () => {
    const before = await bounds('signals');
    expect(await t.app.get(PartitionMaintenance).run()).toEqual({ created: [], dropped: [] });
    expect(await bounds('signals')).toEqual(before);
  });
});

describe('partition maintenance', () => {
  it('creates the periods ahead, moving rows the MAXVALUE partition held into them, without losing one', async () => {
    const spec = await scratchTable('month', utc('2026-01-01T00:00'), utc('2026-02-01T00:00'));
    await ds.query(`INSERT INTO ${spec.table} SELECT g, timestamptz '2025-12-20Z' + g * interval '1 day' FROM generate_series(1, 120) g`);
    const before = await contents(spec.table);
    const [{ n: inMax }] = await ds.query(`SELECT count(*)::int AS n FROM ${spec.table}_max`);
    expect(inMax).toBeGreaterThan(0);

    const created = await onOwnConnection((own) => ensurePartitions(own, spec, utc('2026-03-15T12:00')));
    expect(created).toEqual([3, 4, 5].map((m) => `${spec.table}_p2026${String(m).padStart(2, '0')}`));
    expect(await contents(spec.table)).toEqual(before);
    const [{ n: stillInMax }] = await ds.query(`SELECT count(*)::int AS n FROM ${spec.table}_max WHERE at < '2026-06-01Z'`);
    expect(stillInMax).toBe(0);
    expectContiguous(await bounds(spec.table), spec.table);
    expect(await onOwnConnection((own) => ensurePartitions(own, spec, utc('2026-03-31T23:00')))).toEqual([]);
  });

  it('is safe to run from several processes at once', async () => {
    const spec = await scratchTable('day', utc('2026-01-01T00:00'), utc('2026-01-01T00:00'));
    const runs = await Promise.all([0, 1, 2].map(() => onOwnConnection((own) => ensurePartitions(own, spec, utc('2026-01-10T08:00')))));
    expect(runs.flat().sort()).toEqual(Array.from({ length: 11 }, (_, i) => `${spec.table}_p202601${String(i + 2).padStart(2, '0')}`));
    expectContiguous(await bounds(spec.table), spec.table);
  });

  it('drops whole periods past retention and lets the MINVALUE partition take their range, keeping the rest', async () => {
    const spec = await scratchTable('month', utc('2026-01-01T00:00'), utc('2026-06-01T00:00'));
    await ds.query(`INSERT INTO ${spec.table} SELECT g, timestamptz '2025-11-01Z' + g * interval '1 day' FROM generate_series(0, 240) g`);
    const cutoff = utc('2026-04-01T00:00');
    const [{ kept }] = await ds.query(`SELECT count(*)::int AS kept FROM ${spec.table} WHERE at >= $1`, [cutoff]);

    const dropped = await onOwnConnection((own) => dropExpired(own, spec, utc('2026-06-10T00:00'), 2));
    expect(dropped).toEqual([`${spec.table}_p202601`, `${spec.table}_p202602`, `${spec.table}_p202603`]);
    const [{ n, oldest }] = await ds.query(`SELECT count(*)::int AS n, min(at) AS oldest FROM ${spec.table}`);
    expect({ n, oldest }).toEqual({ n: kept, oldest: cutoff });
    expectContiguous(await bounds(spec.table), spec.table);
    const [{ count }] = await ds.query(`SELECT count(*)::int AS count FROM pg_class WHERE relname = ANY($1)`, [dropped]);
    expect(count).toBe(0);

    // A late row from before the retention lands in the MINVALUE partition, and goes on the next run.
    await ds.query(`INSERT INTO ${spec.table} VALUES (9999, '2026-01-15Z')`);
    expect(await onOwnConnection((own) => dropExpired(own, spec, utc('2026-06-10T00:00'), 2))).toEqual([]);
    const [{ late }] = await ds.query(`SELECT count(*)::int AS late FROM ${spec.table} WHERE id = 9999`);
    expect(late).toBe(0);
  });

  it('recovers from a run that stopped between detaching a period and dropping it', async () => {
    const spec = await scratchTable('month', utc('2026-01-01T00:00'), utc('2026-03-01T00:00'));
    await ds.query(`INSERT INTO ${spec.table} VALUES (1, '2026-01-15Z'), (2, '2026-02-15Z'), (3, '2026-03-15Z')`);
    // What a run that stopped after `DETACH … CONCURRENTLY` leaves: the period out, the MINVALUE partition not extended.
    await ds.query(`ALTER TABLE ${spec.table} DETACH PARTITION ${spec.table}_p202601 CONCURRENTLY`);
    expect(await onOwnConnection((own) => dropExpired(own, spec, utc('2026-03-10T00:00'), 1))).toEqual([`${spec.table}_p202601`]);
    expectContiguous(await bounds(spec.table), spec.table);
    const ids = async () => (await ds.query(`SELECT id::int FROM ${spec.table} ORDER BY id`)).map((r: { id: number }) => r.id);
    expect(await ids()).toEqual([2, 3]);
    // And no value is without a partition: a late row from January has one (and goes on the next run).
    await ds.query(`INSERT INTO ${spec.table} VALUES (4, '2026-01-20Z')`);
    expect(await onOwnConnection((own) => dropExpired(own, spec, utc('2026-03-10T00:00'), 1))).toEqual([]);
    expect(await ids()).toEqual([2, 3]);
  });
});
