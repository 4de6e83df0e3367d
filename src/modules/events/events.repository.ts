import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { preparedQuery } from '../../shared/infrastructure/prepared-query';

/** An event row as stored: `data` and `previous` are the object's row then (see the events migration). */
export interface EventRow {
  id: string;
  txid: string;
  type: string;
  object_type: string;
  data: Record<string, unknown>;
  previous: Record<string, unknown> | null;
  created_at: Date;
}

/** A position in a workspace's feed: after the event `id` of transaction `txid`. */
export interface FeedPosition {
  txid: string;
  id: string;
}

export interface EventFilter {
  /** All types when absent. */
  types?: string[];
  createdAfter?: Date;
}

const COLUMNS = 'e.id, e.txid::text AS txid, e.type, e.object_type, e.data, e.previous, e.created_at';

/**
 * The feed is ordered by (transaction id, event id) and shows only events of transactions older
 * than every transaction still running (`pg_snapshot_xmin` of the statement's snapshot): all of
 * those have committed or rolled back, so no event can later appear before a position already
 * read, whatever order concurrent writers commit in. A long-running writing transaction holds the
 * feed back until it ends.
 */
@Injectable()
export class EventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async page(ctx: WorkspaceContext, filter: EventFilter, after: FeedPosition | null, limit: number): Promise<EventRow[]> {
    const params: unknown[] = [requireWorkspace(ctx)];
    const conditions = ['e.workspace_id = $1', 'e.txid < pg_snapshot_xmin(pg_current_snapshot())'];
    if (after) {
      params.push(after.txid, after.id);
      conditions.push(`(e.txid, e.id) > ($${params.length - 1}::xid8, $${params.length}::bigint)`);
    }
    if (filter.types) {
      params.push(filter.types);
      conditions.push(`e.type = ANY($${params.length}::text[])`);
    }
    if (filter.createdAfter) {
      params.push(filter.createdAfter);
      conditions.push(`e.created_at >= $${params.length}`);
    }
    params.push(limit + 1);
    const { rows } = await preparedQuery<EventRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM events e WHERE ${conditions.join(' AND ')} ORDER BY e.txid, e.id LIMIT $${params.length}`,
      params,
    );
    return rows;
  }

  /** The position after the workspace's last visible event, or null when it has none. */
  async end(ctx: WorkspaceContext): Promise<FeedPosition | null> {
    const { rows } = await preparedQuery<FeedPosition>(
      this.dataSource.manager,
      `SELECT e.txid::text AS txid, e.id FROM events e
        WHERE e.workspace_id = $1 AND e.txid < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY e.txid DESC, e.id DESC LIMIT 1`,
      [requireWorkspace(ctx)],
    );
    return rows[0] ?? null;
  }

  async findMany(ctx: WorkspaceContext, ids: readonly string[]): Promise<EventRow[]> {
    const { rows } = await preparedQuery<EventRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM events e WHERE e.workspace_id = $1 AND e.id = ANY($2::bigint[])`,
      [requireWorkspace(ctx), ids],
    );
    return rows;
  }

  async findOne(ctx: WorkspaceContext, id: string): Promise<EventRow | null> {
    const { rows } = await preparedQuery<EventRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM events e WHERE e.workspace_id = $1 AND e.id = $2`,
      [requireWorkspace(ctx), id],
    );
    return rows[0] ?? null;
  }

  /** Retention, for every workspace at once: deletes events created before `before`, at most `batch`; the number deleted. */
  async pruneAcrossWorkspaces(before: Date, batch: number): Promise<number> {
    const { rowCount } = await preparedQuery(
      this.dataSource.manager,
      `DELETE FROM events WHERE id IN (SELECT id FROM events WHERE created_at < $1 LIMIT $2)`,
      [before, batch],
    );
    return rowCount ?? 0;
  }
}
