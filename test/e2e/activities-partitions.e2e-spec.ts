import { DataSource } from 'typeorm';
import { PartitionMaintenance, readLayout, Sql } from '../../src/database/partition-maintenance';
import { ACTIVITY_PARTITIONS, addPeriods, createPeriodSql, partitionName, periodStart } from '../../src/database/partitions';
import { ActivitiesRepository } from '../../src/modules/activities/activities.repository';
import type { ActivityInput } from '../../src/modules/activities/activity-input';
import { WorkspaceContext } from '../../src/shared/application/workspace-context';
import { firstIdAt, formatId, ID_PREFIXES, IdGenerator } from '../../src/shared/domain/ids';
import { expectError } from '../support/assertions';
import { ingest, ingestAndWait, PIPELINE_APP_ENV, postActivities, websiteActivity } from '../support/pipeline';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { internalId } from '../support/worker-process';

jest.setTimeout(60_000);

const DAY_MS = 86_400_000;

let t: TestApp;
let ds: DataSource;

beforeAll(async () => {
  t = await startTestApp({ ...PIPELINE_APP_ENV, ACTIVITY_RETENTION_DAYS: '30' });
  ds = t.app.get(DataSource);
});

afterAll(() => t?.close());

/** Every partition of the activities with its bounds as numbers (null: MINVALUE / MAXVALUE). */
async function bounds(): Promise<Array<{ name: string; from: bigint | null; to: bigint | null }>> {
  const rows: Array<{ name: string; bound: string }> = await ds.query(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'activities'::regclass`,
  );
  const value = (text: string) => (/^MIN|^MAX/.test(text) ? null : BigInt(text.replace(/'/g, '')));
  return rows
    .map(({ name, bound }) => {
      const match = /^FOR VALUES FROM \((.+)\) TO \((.+)\)$/.exec(bound);
      if (!match) throw new Error(`Not a range partition: ${name} ${bound}`);
      return { name, from: value(match[1]), to: value(match[2]) };
    })
    .sort((a, b) => (a.from === null ? -1 : b.from === null ? 1 : a.from < b.from ? -1 : 1));
}

/** Consecutive ranges from MINVALUE to MAXVALUE, each day's from its first id to the next day's. */
async function expectContiguous(): Promise<void> {
  const layout = await bounds();
  expect(layout[0]).toMatchObject({ name: 'activities_min', from: null });
  expect(layout[layout.length - 1]).toMatchObject({ name: 'activities_max', to: null });
  for (let i = 1; i < layout.length; i++) expect(layout[i].from).toBe(layout[i - 1].to);
  for (const { name, from, to } of layout.slice(1, -1)) {
    const day = new Date(`${name.slice(-8, -4)}-${name.slice(-4, -2)}-${name.slice(-2)}T00:00:00Z`);
    expect({ name, from, to }).toEqual({ name, from: firstIdAt(day), to: firstIdAt(new Date(day.getTime() + DAY_MS)) });
  }
}

/** Days from `first` up to the oldest one there is, taken from the MINVALUE partition's range (as the migration of an older table makes them). */
async function addDaysFrom(first: Date): Promise<void> {
  const runner = ds.createQueryRunner();
  const sql: Sql = (text, values) => runner.query(text, values);
  try {
    const [oldest] = (await readLayout(sql, ACTIVITY_PARTITIONS)).periods;
    await sql('BEGIN');
    await sql(`ALTER TABLE activities DETACH PARTITION activities_min`);
    for (let day = first; day < oldest.start; day = addPeriods('day', day, 1)) await sql(createPeriodSql(ACTIVITY_PARTITIONS, day));
    await sql(
      `ALTER TABLE activities ATTACH PARTITION activities_min FOR VALUES FROM (MINVALUE) TO (${ACTIVITY_PARTITIONS.boundary(first)})`,
    );
    await sql('COMMIT');
  } finally {
    await runner.release();
  }
}

/** Stores an activity as intake does, with an id minted `daysAgo` days ago, finished unless `queued`. */
async function oldActivity(ws: TestWorkspace, daysAgo: number, options: { queued?: boolean; externalId?: string } = {}): Promise<string> {
  const id = new IdGenerator(() => Date.now() - daysAgo * DAY_MS).next();
  const input = websiteActivity('visited_page', 'https://example.com/pricing', { external_id: options.externalId }) as ActivityInput;
  const ctx = WorkspaceContext.forPipeline(internalId(ws.workspace_id));
  expect(await t.app.get(ActivitiesRepository).insertBatch(ctx, [{ id, input }], new Date())).toEqual(new Set([id]));
  if (!options.queued) await ds.query(`UPDATE activities SET stage = 'done', status = 'processed' WHERE id = $1`, [id]);
  return formatId(ID_PREFIXES.activity, id);
}

const statusOf = (ws: TestWorkspace, id: string) => t.http.get(`/ingest/v1/activities/${id}`).set('Authorization', ws.auth);

describe('the activities table', () => {
  it('is partitioned by day of arrival on the id, from MINVALUE to MAXVALUE, today and three days ahead ready', async () => {
    const [{ key }] = await ds.query(`SELECT pg_get_partkeydef('activities'::regclass) AS key`);
    expect(key).toBe('RANGE (id)');
    await expectContiguous();
    const names = (await bounds()).map((p) => p.name);
    const today = periodStart('day', new Date());
    for (let n = 0; n <= ACTIVITY_PARTITIONS.ahead; n++)
      expect(names).toContain(partitionName(ACTIVITY_PARTITIONS, addPeriods('day', today, n)));
    const keys = await ds.query(
      `SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = 'activities'::regclass AND indisunique`,
    );
    expect(keys.map((k: { def: string }) => k.def.replace(/^.* USING btree /, ''))).toEqual(['(workspace_id, id)']);
  });

  it('takes activities through the pipeline, each in today’s partition, and reads one by id from that day alone', async () => {
    const ws = await t.newWorkspace();
    const statuses = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', 'https://example.com/a'),
      websiteActivity('visited_page', 'https://example.com/b'),
    ]);
    expect(statuses.map((s) => s.status)).toEqual(['discarded', 'discarded']);
    const today = partitionName(ACTIVITY_PARTITIONS, periodStart('day', new Date()));
    const rows = await ds.query(`SELECT tableoid::regclass::text AS part FROM activities WHERE workspace_id = $1`, [
      internalId(ws.workspace_id),
    ]);
    expect(rows).toEqual([{ part: today }, { part: today }]);
    const [{ 'QUERY PLAN': plan }] = await ds.query(
      `EXPLAIN (FORMAT JSON) SELECT * FROM activities WHERE workspace_id = $1 AND id = ANY($2::bigint[])`,
      [internalId(ws.workspace_id), statuses.map((s) => BigInt(s.id.slice(4)).toString())],
    );
    expect(JSON.stringify(plan).match(/"Relation Name":"[a-z_0-9]+"/g)).toEqual([`"Relation Name":"${today}"`]);
  });

  it('answers a repeated external_id as duplicate, in a later request and concurrently', async () => {
    const ws = await t.newWorkspace();
    const external_id = `ext-${Date.now()}`;
    const [first] = await ingest(t, ws, [websiteActivity('visited_page', 'https://example.com/a', { external_id })]);
    const answers = await Promise.all(
      [0, 1, 2].map(() =>
        postActivities(t, ws.auth, { activities: [websiteActivity('visited_page', 'https://example.com/a', { external_id })] }),
      ),
    );
    for (const res of answers) expect(res.body.data).toEqual([{ id: first, status: 'duplicate' }]);
  });
});

describe('activity retention', () => {
  it('drops the finished days past ACTIVITY_RETENTION_DAYS, keeps a day with an unfinished activity, and the status route answers 404', async () => {
    const ws = await t.newWorkspace();
    await addDaysFrom(addPeriods('day', periodStart('day', new Date()), -45));
    const gone = await oldActivity(ws, 40, { externalId: 'gone-1' });
    const unfinished = await oldActivity(ws, 38, { queued: true });
    const behind = await oldActivity(ws, 36, { externalId: 'behind-1' });
    const recent = await oldActivity(ws, 5);
    for (const id of [gone, unfinished, behind, recent]) expect((await statusOf(ws, id)).status).toBe(200);

    const { dropped } = await t.app.get(PartitionMaintenance).run();
    const today = periodStart('day', new Date());
    const day = (n: number) => partitionName(ACTIVITY_PARTITIONS, addPeriods('day', today, -n));
    // The days before the unfinished activity's; it and the days after it stay.
    expect(dropped).toEqual([45, 44, 43, 42, 41, 40, 39].map(day));
    await expectContiguous();
    expectError(await statusOf(ws, gone), 404, 'not_found');
    expect((await statusOf(ws, unfinished)).body.status).toBe('queued');
    expect((await statusOf(ws, behind)).body.status).toBe('processed');
    expect((await statusOf(ws, recent)).body.status).toBe('processed');
    // An external id is remembered as long as its activity is kept.
    const again = async (external_id: string) =>
      (await postActivities(t, ws.auth, { activities: [websiteActivity('visited_page', 'https://example.com/a', { external_id })] })).body
        .data[0];
    expect(await again('behind-1')).toEqual({ id: behind, status: 'duplicate' });
    expect((await again('gone-1')).status).toBe('queued');

    // Once it is finished, its day and the next ones go too.
    await ds.query(`UPDATE activities SET stage = 'done', status = 'discarded' WHERE id = $1`, [unfinished.slice(4).replace(/^0+/, '')]);
    expect((await t.app.get(PartitionMaintenance).run()).dropped).toEqual([38, 37, 36, 35, 34, 33, 32, 31].map(day));
    await expectContiguous();
    for (const id of [unfinished, behind]) expectError(await statusOf(ws, id), 404, 'not_found');
    expect((await statusOf(ws, recent)).status).toBe(200);
    expect((await again('behind-1')).status).toBe('queued');
  });

  it('deletes the finished activities the MINVALUE partition holds from before the retention, and keeps the unfinished ones', async () => {
    const ws = await t.newWorkspace();
    const late = await oldActivity(ws, 200);
    const stuck = await oldActivity(ws, 200, { queued: true });
    const [{ part }] = await ds.query(`SELECT tableoid::regclass::text AS part FROM activities WHERE id = $1`, [
      BigInt(late.slice(4)).toString(),
    ]);
    expect(part).toBe('activities_min');
    expect((await t.app.get(PartitionMaintenance).run()).dropped).toEqual([]);
    expectError(await statusOf(ws, late), 404, 'not_found');
    expect((await statusOf(ws, stuck)).body.status).toBe('queued');
  });
});
