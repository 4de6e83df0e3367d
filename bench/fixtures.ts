/** What the scenarios need from the seeded workspace: a deep cursor, a busy Buyer, a recent time window. */
import { Client } from 'pg';
import { formatTimestamp } from '../src/shared/domain/clock';
import { formatId, ID_PREFIXES } from '../src/shared/domain/ids';
import { CursorBinding, CursorCodec } from '../src/shared/infrastructure/cursor-codec';
import type { BenchWorkspace } from './seed';

export const PAGE_SIZE = 100;
const DEEP_PAGES = 5_000;
const DAY_MS = 86_400_000;

export interface Fixtures {
  /** Pages skipped by the deep cursor (5,000, or half the workspace when it is smaller). */
  deepPages: number;
  /** Cursor after row `deepPages × 100` of the unfiltered descending order. */
  deepCursor: string;
  /** The Signal the deep page must start with. */
  deepFirstSignalId: string;
  /** `captured_after` of the filtered scenario: about 30 days before the newest Signal. */
  capturedAfter: string;
  /** The Buyer with the most Signals. */
  busyBuyerId: string;
  busyBuyerSignals: number;
}

/** SignalsService.list's binding for an unfiltered, default-ordered list. */
export function unfilteredSignalsBinding(workspace: BenchWorkspace): CursorBinding {
  return {
    workspaceId: workspace.internalId,
    endpoint: 'signals',
    params: { buyer_id: '', type: '', trigger: '', captured_after: '', captured_before: '', sort_by: 'captured_at', sort_order: 'desc' },
  };
}

/**
 * The cursor the API would hand out at the end of page `deepPages`, built directly (walking 5,000
 * pages would take minutes): the position of that page's last row, signed like keysetPage does.
 */
async function deepCursor(client: Client, workspace: BenchWorkspace, secret: string, signals: number) {
  const deepPages = Math.max(1, Math.min(DEEP_PAGES, Math.floor(signals / PAGE_SIZE / 2)));
  const { rows } = await client.query<{ captured_at: Date; id: string }>(
    `SELECT captured_at, id FROM signals WHERE workspace_id = $1
      ORDER BY captured_at DESC, id DESC OFFSET $2 LIMIT 2`,
    [workspace.internalId, deepPages * PAGE_SIZE - 1],
  );
  if (rows.length < 2) throw new Error(`the workspace has fewer than ${deepPages * PAGE_SIZE + 1} Signals`);
  const [last, next] = rows;
  const codec = new CursorCodec(Buffer.from(secret));
  return {
    deepPages,
    deepCursor: codec.encode(unfilteredSignalsBinding(workspace), [last.captured_at.toISOString(), last.id]),
    deepFirstSignalId: formatId(ID_PREFIXES.signal, next.id),
  };
}

export async function loadFixtures(databaseUrl: string, workspace: BenchWorkspace, secret: string, signals: number): Promise<Fixtures> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deep = await deepCursor(client, workspace, secret, signals);
    const newest = await client.query<{ at: Date }>('SELECT max(captured_at) AS at FROM signals WHERE workspace_id = $1', [
      workspace.internalId,
    ]);
    const busy = await client.query<{ buyer_id: string; n: string }>(
      `SELECT buyer_id, count(*) AS n FROM signals WHERE workspace_id = $1
        GROUP BY buyer_id ORDER BY count(*) DESC, buyer_id LIMIT 1`,
      [workspace.internalId],
    );
    return {
      ...deep,
      capturedAfter: formatTimestamp(new Date(newest.rows[0].at.getTime() - 30 * DAY_MS)),
      busyBuyerId: formatId(ID_PREFIXES.buyer, busy.rows[0].buyer_id),
      busyBuyerSignals: Number(busy.rows[0].n),
    };
  } finally {
    await client.end();
  }
}
