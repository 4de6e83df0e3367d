import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ReplicaReads, ReplicaStatus } from '../../src/database/replica-reads';
import { formatId, ID_PREFIXES } from '../../src/shared/domain/ids';
import { unique } from '../support/kb-resources';
import { PgCluster } from '../support/pg-cluster';
import { PgReplica } from '../support/pg-replica';
import { insertBuyer, insertSignal, InsertedBuyer, InsertedSignal, workspaceInternalId } from '../support/read-model-fixtures';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { waitFor } from '../support/wait';

/*
 * Reads on a real streaming replica: a private primary cluster, a hot standby copied from it with
 * pg_basebackup, and the app on both (DATABASE_REPLICA_URLS). Which server answered a read shows
 * in what it returns: with the standby's replay paused, rows written on the primary since are
 * missing from a read the replica served and present in one the primary served.
 */

/**
 * The app's bound: low, so falling behind takes seconds, with room for the reads a test makes
 * right after pausing replay to be served by the replica even on a busy machine.
 */
const MAX_LAG_S = 3;

let primary: PgCluster;
let replica: PgReplica;
let standby: Client;
let t: TestApp;
let db: DataSource;
let ws: TestWorkspace;
/** The app's log lines. */
const lines: Array<{ level: number; context?: string; msg?: string }> = [];

beforeAll(async () => {
  primary = await PgCluster.create();
  replica = await PgReplica.create(primary);
  const database = `bi_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const logs = new PassThrough();
  logs.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
  });
  t = await startTestApp(
    {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${primary.port}/${database}`,
      DATABASE_REPLICA_URLS: replica.url(database),
      REPLICA_MAX_LAG_S: String(MAX_LAG_S),
      LOG_LEVEL: 'info',
    },
    { databaseAdminUrl: primary.adminUrl, logDestination: logs },
  );
  db = t.app.get(DataSource);
  standby = new Client({ connectionString: replica.url('postgres') });
  await standby.connect();
  ws = await t.newWorkspace();
}, 60_000);

afterEach(async () => {
  // A test that failed with replay paused leaves the next one a replica that catches up.
  await standby?.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
});

afterAll(async () => {
  try {
    await standby?.end();
    await t?.close();
  } finally {
    try {
      await replica?.drop();
    } finally {
      await primary?.drop();
    }
  }
}, 60_000);

/** What `ReplicaReads` logged from line `from` on. */
const replicaLines = (from: number) =>
  lines
    .slice(from)
    .filter((line) => line.context === ReplicaReads.name)
    .map((line) => line.msg);

const get = (path: string, as: TestWorkspace = ws) => t.http.get(path).set('Authorization', as.auth);

async function replicaStatus(): Promise<ReplicaStatus> {
  const res = await t.http.get('/health/ready');
  // Informational: a replica behind or away never makes the API unready.
  expect(res.status).toBe(200);
  const replicas = (res.body as { replicas: ReplicaStatus[] }).replicas;
  expect(replicas).toHaveLength(1);
  return replicas[0];
}

/** Waits until the standby has replayed everything written so far and the app reads from it again. */
async function caughtUp(): Promise<void> {
  const [{ lsn }] = await db.query<Array<{ lsn: string }>>('SELECT pg_current_wal_lsn()::text AS lsn');
  await waitFor(
    async () => (await standby.query<{ replayed: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS replayed', [lsn])).rows[0],
    (row) => row.replayed,
    { timeoutMs: 20_000, what: 'the standby to replay the primary' },
  );
  await waitFor(replicaStatus, (status) => status.state === 'up' && status.lag_seconds === 0, {
    timeoutMs: 20_000,
    what: 'the replica to serve reads',
  });
}

async function pauseReplay(): Promise<void> {
  await standby.query('SELECT pg_wal_replay_pause()');
  await waitFor(
    async () => (await standby.query<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state')).rows[0].state,
    (state) => state === 'paused',
    { what: 'replay to pause' },
  );
}

interface Written {
  buyer: InsertedBuyer;
  signal: InsertedSignal;
  /** A Target Page made through the API, and the event that wrote. */
  targetPageId: string;
  eventId: string;
}

/** A Buyer and its Signal written on the primary, and a Target Page created through the API with its event. */
async function write(as: TestWorkspace = ws): Promise<Written> {
  const buyer = await insertBuyer(db, as.workspace_id, { created_at: new Date() });
  const signal = await insertSignal(db, as.workspace_id, buyer.id, { type: 'website', trigger: 'visited_page', captured_at: new Date() });
  const page = await t.http
    .post('/v1/kb/target-pages')
    .set('Authorization', as.auth)
    .send({ name: 'Pricing', short_name: `p${unique()}`, url: `example.com/${unique()}`, description: 'Buying intent' });
  expect(page.status).toBe(201);
  const [{ id }] = await db.query<Array<{ id: string }>>('SELECT id::text FROM events WHERE workspace_id = $1 ORDER BY seq DESC LIMIT 1', [
    workspaceInternalId(as.workspace_id),
  ]);
  return { buyer, signal, targetPageId: (page.body as { id: string }).id, eventId: formatId(ID_PREFIXES.event, id) };
}

/** Which of `written` the read routes return now. */
async function visible(written: Written) {
  const ids = async (path: string) => ((await get(path)).body as { data: Array<{ id: string }> }).data.map((item) => item.id);
  const events = ((await get('/v1/events?limit=100')).body as { data: Array<{ id: string }> }).data.map((event) => event.id);
  return {
    buyerListed: (await ids('/v1/buyers?limit=100')).includes(written.buyer.public_id),
    buyerFound: (await get(`/v1/buyers/${written.buyer.public_id}`)).status === 200,
    evaluationFound: (await get(`/v1/buyers/${written.buyer.public_id}/evaluation`)).status === 200,
    signalListed: (await ids('/v1/signals?limit=100')).includes(written.signal.public_id),
    buyersSignalListed: (await ids(`/v1/signals?buyer_id=${written.buyer.public_id}`)).includes(written.signal.public_id),
    eventListed: events.includes(written.eventId),
    eventFound: (await get(`/v1/events/${written.eventId}`)).status === 200,
  };
}

const NONE = {
  buyerListed: false,
  buyerFound: false,
  evaluationFound: false,
  signalListed: false,
  buyersSignalListed: false,
  eventListed: false,
  eventFound: false,
};
const ALL = Object.fromEntries(Object.keys(NONE).map((key) => [key, true])) as Record<keyof typeof NONE, boolean>;

/** `bi_db_replica_…` gauges of the replica, from `/metrics`. */
async function replicaGauges(): Promise<{ lag?: number; serving?: number }> {
  const text = (await t.http.get('/metrics')).text;
  const gauge = (name: string) => {
    const match = new RegExp(`^${name}\\{replica="127\\.0\\.0\\.1:${replica.port}/[^"]+"\\} (\\S+)$`, 'm').exec(text);
    return match ? Number(match[1]) : undefined;
  };
  return { lag: gauge('bi_db_replica_lag_seconds'), serving: gauge('bi_db_replica_serving') };
}

describe('reads from a streaming replica (DATABASE_REPLICA_URLS)', () => {
  it('serves Buyers, Signals and events from the replica, within the workspace, and the knowledge base from the primary', async () => {
    const other = await t.newWorkspace();
    const before = await write();
    const others = await write(other);
    await caughtUp();
    expect(await visible(before)).toEqual(ALL);

    await pauseReplay();
    const after = await write();
    // Well within the bound: the replica answers, without what the primary has written since.
    expect(await visible(after)).toEqual(NONE);
    expect(await visible(before)).toEqual(ALL);
    // Read after its own write, the knowledge base is the primary's.
    expect((await get(`/v1/kb/target-pages/${after.targetPageId}`)).status).toBe(200);
    // The replica's reads keep to the workspace: another workspace's rows, present there, are not found.
    expect((await get(`/v1/buyers/${others.buyer.public_id}`, other)).status).toBe(200);
    expect((await get(`/v1/buyers/${others.buyer.public_id}`)).status).toBe(404);
    expect((await get(`/v1/events/${others.eventId}`)).status).toBe(404);
    expect((await get(`/v1/signals?buyer_id=${others.buyer.public_id}`)).body).toMatchObject({ data: [] });
  });

  it('reads from the primary while the replica is more than REPLICA_MAX_LAG_S behind, and from the replica again once it catches up', async () => {
    await caughtUp();
    expect(await replicaGauges()).toEqual({ lag: 0, serving: 1 });

    const from = lines.length;
    await pauseReplay();
    const written = await write();
    // Lagging as soon as the last measurement and its age pass the bound; the measured lag follows.
    await waitFor(replicaStatus, (status) => status.state === 'lagging' && status.lag_seconds! > MAX_LAG_S, {
      timeoutMs: 15_000,
      what: 'the replica to fall behind',
    });
    const gauges = await replicaGauges();
    expect(gauges.serving).toBe(0);
    expect(gauges.lag).toBeGreaterThan(MAX_LAG_S);
    expect(await visible(written)).toEqual(ALL);

    await standby.query('SELECT pg_wal_replay_resume()');
    await caughtUp();
    expect(await replicaGauges()).toEqual({ lag: 0, serving: 1 });
    // One line when it fell behind, one when it was back: not one per measurement or per read.
    expect(replicaLines(from)).toEqual([
      expect.stringMatching(/^Replica 127\.0\.0\.1:\d+\/bi_test_\w+ is more than 3 s behind; reads go to the primary$/),
      expect.stringMatching(/^Replica 127\.0\.0\.1:\d+\/bi_test_\w+ serves reads \(was lagging\)$/),
    ]);
    // Back on the replica: it has what it missed, and misses what is written while paused again.
    await pauseReplay();
    const later = await write();
    expect(await visible(later)).toEqual(NONE);
    expect(await visible(written)).toEqual(ALL);
  });

  it('reads from the primary while the replica is down, and from the replica again once it is back', async () => {
    await caughtUp();
    await standby.end();
    await replica.stop();
    try {
      // The first read after the replica went away is answered, by the primary.
      const written = await write();
      expect(await visible(written)).toEqual(ALL);
      expect(await waitFor(replicaStatus, (status) => status.state === 'down', { what: 'the replica to be down' })).toEqual({
        replica: expect.stringMatching(/^127\.0\.0\.1:\d+\/bi_test_/) as unknown,
        state: 'down',
        lag_seconds: null,
      });
      expect(await replicaGauges()).toEqual({ lag: undefined, serving: 0 });
    } finally {
      await replica.start();
      standby = new Client({ connectionString: replica.url('postgres') });
      await standby.connect();
    }
    await caughtUp();
    await pauseReplay();
    expect(await visible(await write())).toEqual(NONE);
  });
});
