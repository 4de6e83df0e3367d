import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { ActivitiesRepository } from '../../src/modules/activities/activities.repository';
import { validateActivityBatch } from '../../src/modules/activities/activity-input';
import { DirectoryRepository } from '../../src/modules/directory/directory.repository';
import { EnrichStep } from '../../src/modules/pipeline/application/enrich.step';
import { EvaluateStep } from '../../src/modules/pipeline/application/evaluate.step';
import { MatchStep } from '../../src/modules/pipeline/application/match.step';
import { ResolveStep } from '../../src/modules/pipeline/application/resolve.step';
import type { PipelineJob } from '../../src/modules/pipeline/queues';
import { requireWorkspace, WorkspaceContext } from '../../src/shared/application/workspace-context';
import { formatId, ID_PREFIXES, IdGenerator } from '../../src/shared/domain/ids';
import { ID_GENERATOR } from '../../src/shared/shared.module';
import { unique } from '../support/kb-resources';
import { createKb } from '../support/pipeline';
import { startTestApp, TestApp } from '../support/test-app';
import { internalId } from '../support/worker-process';

// The pipeline's reads, stage moves and directory lookups, made side by side, go to PostgreSQL
// together: each caller must still get exactly its own answer, within its own workspace.
let t: TestApp;
let repo: ActivitiesRepository;
let pool: Pool;

beforeAll(async () => {
  // With the pipeline module (the directory is part of it); no activity here is ever queued.
  t = await startTestApp({ RUN_WORKERS: 'true' });
  repo = t.app.get(ActivitiesRepository);
  pool = (t.app.get(DataSource).driver as unknown as { master: Pool }).master;
});
afterAll(async () => {
  jest.restoreAllMocks();
  await t?.close();
});

/** Stores (never queues) activities in the workspace; returns their ids. */
async function store(ctx: WorkspaceContext, raw: unknown[]): Promise<string[]> {
  const ids = t.app.get<IdGenerator>(ID_GENERATOR);
  const batch = validateActivityBatch({ activities: raw }).map((input) => ({ id: ids.next(), input }));
  await repo.insertBatch(ctx, batch, new Date());
  return batch.map((a) => a.id);
}

/** A workspace with `count` stored (never queued) activities; returns its context and their ids. */
async function workspaceWith(count: number): Promise<{ ctx: WorkspaceContext; ids: string[] }> {
  const ws = await t.newWorkspace(`Batching ${unique()}`);
  const ctx = WorkspaceContext.forPipeline(internalId(ws.workspace_id));
  const raw = Array.from({ length: count }, (_, i) => ({
    type: 'website',
    trigger: 'visited_page',
    occurred_at: '2026-01-01T00:00:00Z',
    identity: { email: `p${i}-${unique()}@acme.com` },
    website: { url: `https://acme.com/${i}` },
  }));
  return { ctx, ids: await store(ctx, raw) };
}

/** Statements sent, on any connection, while `run` runs that match `pattern`. */
async function statementsDuring<T>(pattern: RegExp, run: () => Promise<T>): Promise<{ result: T; count: number }> {
  const spy = jest.spyOn(Client.prototype, 'query');
  try {
    const result = await run();
    const count = spy.mock.calls.filter(([config]) =>
      pattern.test(typeof config === 'string' ? config : (config as { text: string }).text),
    ).length;
    return { result, count };
  } finally {
    spy.mockRestore();
  }
}

describe('activity reads made side by side', () => {
  it('go out as one statement per workspace, and each caller gets its own activity', async () => {
    const a = await workspaceWith(12);
    const b = await workspaceWith(5);
    const { result, count } = await statementsDuring(/id = ANY/, () =>
      Promise.all([...a.ids.map((id) => repo.find(a.ctx, id)), ...b.ids.map((id) => repo.find(b.ctx, id))]),
    );
    expect(count).toBe(2);
    expect(result.map((row) => row?.id)).toEqual([...a.ids, ...b.ids]);
    expect(result.map((row) => row?.workspace_id)).toEqual([
      ...a.ids.map(() => requireWorkspace(a.ctx)),
      ...b.ids.map(() => requireWorkspace(b.ctx)),
    ]);
  });

  it('never hands one workspace another workspace’s activity', async () => {
    const a = await workspaceWith(2);
    const b = await workspaceWith(2);
    const [own, foreign, missing] = await Promise.all([repo.find(a.ctx, a.ids[0]), repo.find(a.ctx, b.ids[0]), repo.find(b.ctx, '1')]);
    expect(own?.id).toBe(a.ids[0]);
    expect(foreign).toBeNull();
    expect(missing).toBeNull();
  });

  it('gives two callers of the same activity two copies, so one cannot change what the other sees', async () => {
    const a = await workspaceWith(1);
    const [first, second] = await Promise.all([repo.find(a.ctx, a.ids[0]), repo.find(a.ctx, a.ids[0])]);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    (first!.payload as { type: string }).type = 'changed';
    expect(second!.payload.type).toBe('website');
  });
});

describe('stage moves made side by side', () => {
  it('go out as one statement per workspace and kind of move, and report each move', async () => {
    const a = await workspaceWith(10);
    const now = new Date();
    const { result, count } = await statementsDuring(/^UPDATE activities a SET/, () =>
      Promise.all([
        ...a.ids.slice(0, 6).map((id, i) => repo.advance(a.ctx, id, 'resolve', { stage: 'enrich', person_key: `k${i}` }, now)),
        ...a.ids
          .slice(6)
          .map((id) =>
            repo.advance(a.ctx, id, 'resolve', { stage: 'done', status: 'discarded', discard_reason: 'unresolved_identity' }, now),
          ),
      ]),
    );
    expect(result).toEqual(Array(10).fill(true));
    expect(count).toBe(2);
    const rows = await Promise.all(a.ids.map((id) => repo.find(a.ctx, id)));
    expect(rows.map((row) => [row!.stage, row!.person_key, row!.status])).toEqual([
      ...Array.from({ length: 6 }, (_, i) => ['enrich', `k${i}`, 'queued']),
      ...Array.from({ length: 4 }, () => ['done', null, 'discarded']),
    ]);
  });

  it('move an activity once when the same move is asked for several times at once', async () => {
    const a = await workspaceWith(1);
    const identity = { email: 'x@acme.com', hems: [] };
    const moves = await Promise.all(
      Array.from({ length: 5 }, () =>
        repo.advance(a.ctx, a.ids[0], 'resolve', { stage: 'enrich', identity: identity as never }, new Date()),
      ),
    );
    expect(moves.filter(Boolean)).toHaveLength(1);
    expect(await repo.advance(a.ctx, a.ids[0], 'resolve', { stage: 'enrich' }, new Date())).toBe(false);
    expect((await repo.find(a.ctx, a.ids[0]))!.identity).toEqual(identity);
  });

  it('leave other workspaces’ activities alone', async () => {
    const a = await workspaceWith(1);
    const b = await workspaceWith(1);
    const [wrong, right] = await Promise.all([
      repo.advance(a.ctx, b.ids[0], 'resolve', { stage: 'enrich' }, new Date()),
      repo.advance(b.ctx, b.ids[0], 'resolve', { stage: 'enrich', person_key: 'b' }, new Date()),
    ]);
    expect([wrong, right]).toEqual([false, true]);
    expect((await repo.find(b.ctx, b.ids[0]))!.person_key).toBe('b');
  });
});

describe('pipeline steps', () => {
  it('change no column an activity index covers or filters on, so their updates can stay on the row’s page', async () => {
    // What Match writes besides the outcome; only the status may touch an index.
    const written = ['stage', 'updated_at', 'person_key', 'identity', 'contact_info', 'company_info', 'evaluation'];
    const { rows } = await pool.query<{ def: string }>(
      `SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = 'activities'::regclass`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const { def } of rows) {
      const columns: string[] = def.slice(def.indexOf(' USING ')).match(/[a-z_]+/g) ?? [];
      expect({ def, covered: written.filter((column) => columns.includes(column)) }).toEqual({ def, covered: [] });
    }
    // The table is partitioned by day (ADR 0053): each partition leaves half of its pages free.
    const { rows: partitions } = await pool.query<{ name: string; options: string[] | null }>(
      `SELECT c.relname AS name, c.reloptions AS options FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'activities'::regclass`,
    );
    expect(partitions.length).toBeGreaterThan(2);
    for (const partition of partitions) expect(partition).toEqual({ name: partition.name, options: ['fillfactor=50'] });
  });
});

describe('ids in any spelling', () => {
  it('find and move the activity whatever zeros lead its id, and nothing for an id no row can have', async () => {
    const a = await workspaceWith(1);
    const padded = a.ids[0].padStart(19, '0');
    const [found, tooBig, notDigits] = await Promise.all([
      repo.find(a.ctx, padded),
      repo.find(a.ctx, '9999999999999999999'),
      repo.find(a.ctx, '12x'),
    ]);
    expect(found?.id).toBe(a.ids[0]);
    expect([tooBig, notDigits]).toEqual([null, null]);
    expect(await repo.advance(a.ctx, `00${a.ids[0]}`.slice(-19), 'resolve', { stage: 'enrich' }, new Date())).toBe(true);
    expect(await repo.advance(a.ctx, '9999999999999999999', 'resolve', { stage: 'enrich' }, new Date())).toBe(false);
  });
});

describe('directory lookups made side by side', () => {
  it('go out as one statement, and each gets its own person and the first company the directory has', async () => {
    const directory = t.app.get(DirectoryRepository);
    const n = unique();
    await directory.upsertCompanies([
      { domain: `own-${n}.com`, data: { name: 'Own' } },
      { domain: `hint-${n}.com`, data: { name: 'Hint' } },
      { domain: `mail-${n}.com`, data: { name: 'Mail' } },
    ]);
    await directory.upsertPeople([
      { email: `ann-${n}@mail-${n}.com`, linkedin: null, company_domain: `own-${n}.com`, data: { first_name: 'Ann' } },
      { email: `bob-${n}@mail-${n}.com`, linkedin: null, company_domain: null, data: { first_name: 'Bob' } },
    ]);
    const { result, count } = await statementsDuring(/directory_people/, () =>
      Promise.all([
        // The person's own company comes first, then the candidates in order.
        directory.personAndCompany(`ann-${n}@mail-${n}.com`, [`hint-${n}.com`, `mail-${n}.com`]),
        directory.personAndCompany(`bob-${n}@mail-${n}.com`, ['', `nowhere-${n}.com`, `mail-${n}.com`]),
        directory.personAndCompany(`nobody-${n}@x.com`, [`hint-${n}.com`]),
        directory.personAndCompany(null, [`nowhere-${n}.com`]),
        directory.personAndCompany(`ann-${n}@mail-${n}.com`, []),
      ]),
    );
    expect(count).toBe(1);
    expect(result.map((found) => [found.person?.data.first_name ?? null, found.company?.name ?? null])).toEqual([
      ['Ann', 'Own'],
      ['Bob', 'Mail'],
      [null, 'Hint'],
      [null, null],
      ['Ann', 'Own'],
    ]);
  });
});

describe('Match jobs run side by side', () => {
  /** `2026-01-01T00:00:00Z` plus `i` minutes. */
  const minute = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();

  /** A workspace with a Target Page and an Exclusion, and stored activities taken through Resolve, Enrich and Evaluate. */
  async function atMatch(raw: (page: string, excluded: string) => unknown[]) {
    const ws = await t.newWorkspace(`Match batching ${unique()}`);
    const ctx = WorkspaceContext.forPipeline(internalId(ws.workspace_id));
    const n = unique();
    const page = `https://www.acme-${n}.com/pricing`;
    const excluded = `blocked-${n}.com`;
    await createKb(t, ws, 'target-pages', { name: `Pricing ${n}`, short_name: `pricing-${n}`, url: page, description: 'The pricing page' });
    await createKb(t, ws, 'exclusions', { name: 'Blocked', short_name: `ex-${n}`, domain: excluded, description: 'Never a target' });
    const ids = await store(ctx, raw(page, excluded));
    const jobs: PipelineJob[] = ids.map((activityId) => ({ workspaceId: requireWorkspace(ctx), activityId }));
    for (const step of [ResolveStep, EnrichStep, EvaluateStep]) await Promise.all(jobs.map((job) => t.app.get(step).run(job)));
    return { ws, ctx, ids, jobs };
  }

  const visit = (email: string, url: string, at: number) => ({
    type: 'website',
    trigger: 'visited_page',
    occurred_at: minute(at),
    identity: { email },
    website: { url },
  });

  it('match together, in one write, each activity once, folding a person’s Signals in captured_at order', async () => {
    const ann = `ann-${unique()}@acme.com`;
    const bob = `bob-${unique()}@acme.com`;
    const { ws, ctx, ids, jobs } = await atMatch((page, excluded) => [
      visit(ann, page, 30),
      visit(ann, page, 10),
      visit(bob, page, 5),
      visit(ann, page, 20),
      visit(`eve-${unique()}@${excluded}`, page, 1),
      visit(bob, `${page}/elsewhere`, 2),
    ]);
    const match = t.app.get(MatchStep);
    // Every job twice, as a re-delivered job would be.
    const { result, count } = await statementsDuring(/^WITH buyer_update/, () =>
      Promise.all([...jobs, ...jobs].map((job) => match.run(job))),
    );
    expect(result).toEqual(Array(12).fill(null));
    expect(count).toBe(1);

    const rows = await Promise.all(ids.map((id) => repo.find(ctx, id)));
    expect(rows.map((row) => [row!.stage, row!.status, row!.discard_reason])).toEqual([
      ...Array(4).fill(['done', 'processed', null]),
      ['done', 'discarded', 'excluded_company'],
      ['done', 'discarded', 'no_target_match'],
    ]);
    const annBuyer = rows[0]!.buyer_id;
    expect([rows[1]!.buyer_id, rows[3]!.buyer_id]).toEqual([annBuyer, annBuyer]);
    expect(rows[2]!.buyer_id).not.toBe(annBuyer);
    expect(new Set(rows.slice(0, 4).map((row) => row!.signal_id)).size).toBe(4);

    const buyerPath = `/v1/buyers/${formatId(ID_PREFIXES.buyer, annBuyer!)}`;
    const buyer = (await t.http.get(buyerPath).set('Authorization', ws.auth).expect(200)).body;
    expect(buyer.signal_count).toEqual({ total: 3, website: 3, market: 0, linkedin: 0 });
    expect([buyer.first_signal_id, buyer.last_signal_id]).toEqual([
      formatId(ID_PREFIXES.signal, rows[1]!.signal_id!),
      formatId(ID_PREFIXES.signal, rows[0]!.signal_id!),
    ]);

    // Run again, alone and side by side: nothing changes.
    expect(await Promise.all(jobs.map((job) => match.run(job)))).toEqual(Array(6).fill(null));
    expect((await t.http.get(buyerPath).set('Authorization', ws.auth).expect(200)).body).toEqual(buyer);
  });

  it('rewrite a Buyer on its own heap page, so its versions add no index entries', async () => {
    /**
     * Waits until every transaction that began before now has ended. A rewrite leaves dead versions
     * on the page, which PostgreSQL prunes only once no transaction could still see them; a
     * transaction in any database counts (every snapshot taken meanwhile keeps it), such as another
     * test file's migrations, and until it ends the next rewrite may find no room on the page.
     */
    const settled = async (): Promise<void> => {
      const { xid } = (await pool.query<{ xid: string }>('SELECT txid_current()::text AS xid')).rows[0];
      for (let wait = 0; wait < 100; wait++) {
        const { xmin } = (await pool.query<{ xmin: string }>('SELECT txid_snapshot_xmin(txid_current_snapshot())::text AS xmin')).rows[0];
        if (BigInt(xmin) > BigInt(xid)) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const people = Array.from({ length: 8 }, (_, i) => `p${i}-${unique()}@acme.com`);
    const { ctx, ids, jobs } = await atMatch((page) => people.map((email, i) => visit(email, page, i)));
    const match = t.app.get(MatchStep);
    await Promise.all(jobs.map((job) => match.run(job)));
    const buyerId = (await repo.find(ctx, ids[0]))!.buyer_id;
    const location = async () =>
      (await pool.query<{ page: string }>(`SELECT (ctid::text::point)[0] AS page FROM buyers WHERE id = $1`, [buyerId])).rows[0].page;
    const before = await location();
    for (let i = 1; i <= 3; i++) {
      await settled();
      // A read of the page prunes it of the versions no transaction can see any more.
      await location();
      const [next] = await store(ctx, [visit(people[0], (await repo.find(ctx, ids[0]))!.payload.website!.url, 100 + i)]);
      const job = { workspaceId: requireWorkspace(ctx), activityId: next };
      for (const step of [ResolveStep, EnrichStep, EvaluateStep, MatchStep]) await t.app.get(step).run(job);
      expect((await repo.find(ctx, next))!.buyer_id).toBe(buyerId);
      expect(await location()).toBe(before);
    }
  });

  it('fail only the job whose activity cannot be matched; the others are matched', async () => {
    const { ctx, ids, jobs } = await atMatch((page) => [1, 2, 3, 4].map((i) => visit(`p${i}-${unique()}@acme.com`, page, i)));
    // A row intake could not have written: Match cannot read the visited page from it.
    await pool.query(`UPDATE activities SET payload = '{}' WHERE workspace_id = $1 AND id = $2`, [requireWorkspace(ctx), ids[2]]);
    const match = t.app.get(MatchStep);
    const outcomes = await Promise.allSettled(jobs.map((job) => match.run(job)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const rows = await Promise.all(ids.map((id) => repo.find(ctx, id)));
    expect(rows.map((row) => [row!.stage, row!.status, row!.identity?.personKey ?? null])).toEqual([
      ['done', 'processed', expect.stringMatching(/^email:p1-/)],
      ['done', 'processed', expect.stringMatching(/^email:p2-/)],
      ['resolve', 'queued', null],
      ['done', 'processed', expect.stringMatching(/^email:p4-/)],
    ]);
  });
});
