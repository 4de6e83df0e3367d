/**
 * Prints `EXPLAIN (ANALYZE, BUFFERS)` of every Buyers/Signals list query shape, as the
 * repositories build them, against a seeded database:
 *
 *   DATABASE_URL=… npx ts-node --transpile-only bench/explain.ts wor_…
 *
 * Deep pages start from the position of row 500,000 (page 5,000 at limit 100).
 */
import 'reflect-metadata';
import { Client } from 'pg';
import type { ReplicaReads } from '../src/database/replica-reads';
import { BuyersRepository } from '../src/modules/buyers/buyers.repository';
import { SignalFilter, SignalsRepository } from '../src/modules/signals/signals.repository';
import type { KeysetPosition } from '../src/shared/application/pagination';
import { WorkspaceContext } from '../src/shared/application/workspace-context';

async function main(): Promise<void> {
  const workspace = process.argv[2];
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/buyer_intel';
  if (!workspace) throw new Error('usage: explain.ts wor_…');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const ctx = WorkspaceContext.forConsole(workspace, 'explain');

  // The repositories only call reads.query(sql, params): record instead of running.
  let captured: { sql: string; params: unknown[] } = { sql: '', params: [] };
  const recorder = {
    query: (sql: string, params: unknown[]) => Promise.resolve(((captured = { sql, params }), { rows: [], rowCount: 0 })),
  } as unknown as ReplicaReads;
  const signals = new SignalsRepository(recorder);
  const buyers = new BuyersRepository(recorder);

  const deepSignal = (
    await client.query(
      'SELECT captured_at AS at, id FROM signals WHERE workspace_id = $1 ORDER BY captured_at DESC, id DESC OFFSET 500000 LIMIT 1',
      [ctx.workspaceId],
    )
  ).rows[0] as KeysetPosition;
  const deepBuyer = (
    await client.query(
      'SELECT created_at AS at, id FROM buyers WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC OFFSET 50000 LIMIT 1',
      [ctx.workspaceId],
    )
  ).rows[0] as KeysetPosition;
  const someBuyer = (
    await client.query<{ buyer_id: string }>('SELECT buyer_id FROM signals WHERE workspace_id = $1 LIMIT 1', [ctx.workspaceId])
  ).rows[0].buyer_id;
  const monthAgo = new Date(Date.now() - 30 * 86_400_000);
  const twoMonthsAgo = new Date(Date.now() - 60 * 86_400_000);

  const shapes: Array<[string, () => Promise<unknown>]> = [];
  const signalShape = (name: string, filter: Partial<SignalFilter>, after: KeysetPosition | null = null) =>
    shapes.push([`signals: ${name}`, () => signals.page(ctx, { order: 'desc', ...filter }, after, 100)]);
  signalShape('first page', {});
  signalShape('page 5,000 (deep)', {}, deepSignal);
  signalShape('first page, ascending', { order: 'asc' });
  signalShape('type', { type: 'website' });
  signalShape('type + trigger', { type: 'website', trigger: 'visited_page' });
  signalShape('type + trigger + captured_after', { type: 'market', trigger: 'researched_topic', capturedAfter: monthAgo });
  signalShape('type + trigger, deep', { type: 'website', trigger: 'visited_page' }, deepSignal);
  signalShape('buyer_id', { buyerId: someBuyer });
  signalShape('captured_after + captured_before', { capturedAfter: twoMonthsAgo, capturedBefore: monthAgo });
  signalShape('captured_after + captured_before, ascending', { capturedAfter: twoMonthsAgo, capturedBefore: monthAgo, order: 'asc' });
  shapes.push(['buyers: first page', () => buyers.page(ctx, { order: 'desc' }, null, 100)]);
  shapes.push(['buyers: page 500 (deep)', () => buyers.page(ctx, { order: 'desc' }, deepBuyer, 100)]);
  shapes.push([
    'buyers: created range, ascending',
    () => buyers.page(ctx, { order: 'asc', createdAfter: twoMonthsAgo, createdBefore: monthAgo }, null, 100),
  ]);
  shapes.push(['buyers: one by id', () => buyers.findOne(ctx, deepBuyer.id)]);

  for (const [name, build] of shapes) {
    await build();
    // Warm once, then measure.
    await client.query(`EXPLAIN (ANALYZE) ${captured.sql}`, captured.params);
    const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${captured.sql}`, captured.params);
    console.log(`### ${name}\n\n\`\`\`\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}\n\`\`\`\n`);
  }
  await client.end();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
