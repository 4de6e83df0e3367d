import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ReplicaReads } from '../../database/replica-reads';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { preparedQuery } from '../../shared/infrastructure/prepared-query';

/** An event row as stored: `data` and `previous` are the object's row then (see the events migration). */
export interface EventRow {
  id: string;
  seq: string;
  type: string;
  object_type: string;
  data: Record<string, unknown>;
  previous: Record<string, unknown> | null;
  created_at: Date;
}

/** A position in a workspace's feed: after its event numbered `seq`. */
export interface FeedPosition {
  seq: string;
}

export interface EventFilter {
  /** All types when absent. */
  types?: string[];
  createdAfter?: Date;
}

const COLUMNS = 'e.id, e.seq, e.type, e.object_type, e.data, e.previous, e.created_at';

/**
 * The feed is a workspace's events by `seq`, the order their transactions committed in (see the
 * events migration): an event can never appear before a position a reader has already passed.
 * A replica replays commits in that order too, so the feed's pages and single events are read
 * through `ReplicaReads` (ADR 0050): a replica behind shows fewer events, never a gap. What the
 * workers and the CLI read (deliveries' events, the end of the feed) stays on the primary.
 */
@Injectable()
export class EventsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reads: ReplicaReads,
  ) {}

  async page(ctx: WorkspaceContext, filter: EventFilter, after: FeedPosition | null, limit: number): Promise<EventRow[]> {
    const params: unknown[] = [requireWorkspace(ctx)];
    const conditions = ['e.workspace_id = $1'];
    if (after) {
      params.push(after.seq);
      conditions.push(`e.seq > $${params.length}`);
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
    const { rows } = await this.reads.query<EventRow>(
      `SELECT ${COLUMNS} FROM events e WHERE ${conditions.join(' AND ')} ORDER BY e.seq LIMIT $${params.length}`,
      params,
    );
    return rows;
  }

  /** The position after the workspace's last visible event, or null when it has none. */
  async end(ctx: WorkspaceContext): Promise<FeedPosition | null> {
    const { rows } = await preparedQuery<{ last: string }>(
      this.dataSource.manager,
      `SELECT last FROM event_sequences WHERE workspace_id = $1`,
      [requireWorkspace(ctx)],
    );
    return rows[0] ? { seq: rows[0].last } : null;
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
    const { rows } = await this.reads.query<EventRow>(`SELECT ${COLUMNS} FROM events e WHERE e.workspace_id = $1 AND e.id = $2`, [
      requireWorkspace(ctx),
      id,
    ]);
    return rows[0] ?? null;
  }

  /** Retention, for every workspace at once: deletes events created before `before`, at most `batch`; the number deleted. */
  async pruneAcrossWorkspaces(before: Date, batch: number): Promise<number> {
    const { rowCount } = await preparedQuery(
      this.dataSource.manager,
      `DELETE FROM events WHERE (workspace_id, id) IN (SELECT workspace_id, id FROM events WHERE created_at < $1 LIMIT $2)`,
      [before, batch],
    );
    return rowCount ?? 0;
  }
}
