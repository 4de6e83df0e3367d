import { Repository } from 'typeorm';
import type { KeysetPosition } from '../application/pagination';
import { requireWorkspace, WorkspaceContext } from '../application/workspace-context';
import { KbEventAction, kbEventType, kbObjectType } from '../domain/events';
import { commitWithoutFlush, DURABLE, EVENT_COLUMNS, eventNumbers, rowJson } from './event-outbox';
import { KbRecordEntity } from './kb-record.entity';
import { keysetSql } from './keyset-sql';
import { preparedQuery } from './prepared-query';

/** A knowledge-base table's names, from its entity's metadata (never from input). */
export interface KbTableNames {
  table: string;
  /**
   * The columns by name, in the entity's order (not `*`: a prepared statement's result must keep
   * its shape when a migration adds a column while the process runs).
   */
  columns: string;
  properties: string[];
}

/**
 * How a resource's writes record their events: `path` names them (`kb.<path>.created|…`);
 * `events` false writes none (EVENTS_ENABLED off).
 */
export interface KbEvents {
  path: string;
  events: boolean;
}

/**
 * CTEs that record the event of the row `changed` returns (at most one), in the statement that
 * changes it: the write and its event commit together, or neither does. The statement's
 * transaction commits without waiting for the flush (the counter's lock is held only until the
 * commit is written); the writer waits for `DURABLE` before the change is acknowledged.
 */
function eventOf(
  { path, events }: KbEvents,
  action: KbEventAction,
  changed: string,
  previous = 'NULL::json',
  from = `${changed} r`,
): string {
  const count = `(SELECT count(*) FROM ${changed})${events ? '' : ' * 0'}`;
  return `${commitWithoutFlush('early')},
      ${eventNumbers('numbers', `(SELECT c.workspace_id FROM ${changed} c, early LIMIT 1)`, count)},
      event AS (INSERT INTO events (${EVENT_COLUMNS})
      SELECT r.workspace_id, n.last, '${kbEventType(path, action)}', '${kbObjectType(path)}', ${rowJson('r')}, ${previous}
        FROM ${from}, numbers n)`;
}

/** The insert of a record and its `created` event; the parameters are the columns' values, in `properties` order. */
export function kbInsertSql({ table, columns, properties }: KbTableNames, events: KbEvents): string {
  const insert = `INSERT INTO ${table} (${columns}) VALUES (${properties.map((_, i) => `$${i + 1}`).join(', ')})`;
  return `WITH inserted AS (${insert} RETURNING ${columns}), ${eventOf(events, 'created', 'inserted')} SELECT 1`;
}

/**
 * The soft delete of an active record and its `deleted` event (the record as it was): `$1` the
 * workspace, `$2` the id, `$3` now.
 */
export function kbSoftDeleteSql({ table, columns }: KbTableNames, events: KbEvents): string {
  return `WITH deleted AS (UPDATE ${table} SET deleted_at = $3 WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING ${columns}),
            ${eventOf(events, 'deleted', 'deleted')}
       SELECT 1 FROM deleted`;
}

/** A resource's statements that do not depend on the request, built once from its names. */
interface KbStatements extends KbTableNames {
  insert: string;
  softDelete: string;
  /** The CTEs of an update's `updated` event; the update itself depends on the fields changed. */
  updateEvent: string;
}

/**
 * The only way to the knowledge-base tables. Every method takes the workspace first and refuses to
 * run without one, and every statement carries `workspace_id = …` and `deleted_at IS NULL`, so no
 * query path can reach another tenant's or a deleted record.
 */
export class KbRepository<E extends KbRecordEntity> {
  private readonly eventSettings: KbEvents;

  /** `path` names the resource's events (`kb.<resource>.created|updated|deleted`). */
  constructor(
    private readonly repo: Repository<E>,
    path: string,
    /** False writes no events (EVENTS_ENABLED off). */
    events = true,
  ) {
    this.eventSettings = { path, events };
  }

  /** Table and column names come from entity metadata, never from input; read once. */
  private names?: KbStatements;

  private get sqlNames(): KbStatements {
    if (!this.names) {
      const { tableName, columns } = this.repo.metadata;
      const names: KbTableNames = {
        table: tableName,
        columns: columns.map((column) => column.databaseName).join(', '),
        properties: columns.map((column) => column.propertyName),
      };
      this.names = {
        ...names,
        insert: kbInsertSql(names, this.eventSettings),
        softDelete: kbSoftDeleteSql(names, this.eventSettings),
        // The earlier row, read in the statement's snapshot (before the update), is the event's `previous`.
        updateEvent: eventOf(
          this.eventSettings,
          'updated',
          'updated',
          rowJson('o'),
          `updated r JOIN ${tableName} o ON o.workspace_id = r.workspace_id AND o.id = r.id`,
        ),
      };
    }
    return this.names;
  }

  /**
   * One page plus one extra row: the extra row only tells whether another page exists. Plain SQL
   * on the list path: rows already have the entity's shape (property names are column names).
   */
  async page(ctx: WorkspaceContext, after: KeysetPosition | null, limit: number): Promise<E[]> {
    const { table, columns } = this.sqlNames;
    const params: unknown[] = [requireWorkspace(ctx)];
    const keyset = keysetSql('r', 'created_at', 'desc', after, limit, params);
    const { rows } = await preparedQuery<E>(
      this.repo.manager,
      `SELECT ${columns} FROM ${table} r WHERE r.workspace_id = $1 AND r.deleted_at IS NULL${keyset.where ? ` AND ${keyset.where}` : ''} ${keyset.tail}`,
      params,
    );
    return rows;
  }

  async findActive(ctx: WorkspaceContext, id: string): Promise<E | null> {
    const { table, columns } = this.sqlNames;
    const { rows } = await preparedQuery<E>(
      this.repo.manager,
      `SELECT ${columns} FROM ${table} WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [requireWorkspace(ctx), id],
    );
    return rows[0] ?? null;
  }

  async insert(ctx: WorkspaceContext, record: Omit<E, 'workspace_id' | 'deleted_at'>): Promise<E> {
    const workspaceId = requireWorkspace(ctx);
    const row = { ...record, workspace_id: workspaceId, deleted_at: null } as unknown as E;
    const values = row as unknown as Record<string, unknown>;
    const { insert, properties } = this.sqlNames;
    await this.write(
      insert,
      properties.map((name) => values[name] ?? null),
    );
    return row;
  }

  /**
   * Applies `changes` to an active record and returns it, or null when there is none.
   * `updated_at` must visibly move on every update although the API shows whole seconds, so it
   * becomes the later of now and one second past the previous value.
   */
  async update(ctx: WorkspaceContext, id: string, changes: Partial<E>, now: Date): Promise<E | null> {
    const { table, columns, properties, updateEvent } = this.sqlNames;
    const params: unknown[] = [requireWorkspace(ctx), id, now];
    // Only declared columns are set; their values are parameters.
    const sets = Object.entries(changes as Record<string, unknown>)
      .filter(([name]) => properties.includes(name) && name !== 'updated_at')
      .map(([name, value]) => `${name} = $${params.push(value)}`);
    sets.push(`updated_at = GREATEST($3::timestamptz, date_trunc('second', t.updated_at) + interval '1 second')`);
    const rows = await this.write<E>(
      `WITH updated AS (UPDATE ${table} t SET ${sets.join(', ')}
                         WHERE t.workspace_id = $1 AND t.id = $2 AND t.deleted_at IS NULL RETURNING ${columns}),
            ${updateEvent}
       SELECT * FROM updated`,
      params,
    );
    return rows[0] ?? null;
  }

  /** Soft delete; false when there was no active record to delete. The event carries the record as it was. */
  async softDelete(ctx: WorkspaceContext, id: string, now: Date): Promise<boolean> {
    const rows = await this.write(this.sqlNames.softDelete, [requireWorkspace(ctx), id, now]);
    return rows.length > 0;
  }

  /**
   * A change and its event in one statement, acknowledged only once durable: the statement's
   * commit does not wait for the flush (`eventOf`), so this waits for it afterwards. A change
   * that made no row (nothing to update or delete) has nothing to wait for.
   */
  private async write<Row>(text: string, params: readonly unknown[]): Promise<Row[]> {
    const { rows, rowCount } = await preparedQuery<Row>(this.repo.manager, text, params);
    if (rowCount !== 0) await preparedQuery(this.repo.manager, DURABLE, []);
    return rows;
  }
}
