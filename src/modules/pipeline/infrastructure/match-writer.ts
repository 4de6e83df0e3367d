import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/config';
import { requireWorkspace, WorkspaceContext } from '../../../shared/application/workspace-context';
import type { Statement } from '../../../shared/infrastructure/commit-behind';
import { SqlParams } from '../../../shared/infrastructure/sql-params';
import { ActivityChanges, advanceManySql } from '../../activities/activities.repository';
import { EVENT_COLUMNS, eventNumbers } from '../../../shared/infrastructure/event-outbox';
import { associationJoins, buyerPreviousJson, buyerRowJson } from '../../buyers/buyers.sql';
import { signalRowJson } from '../../signals/signals.repository';
import type { BuyerFold, NewSignal } from './buyer-writer';

/** The columns Match writes on every activity it finishes: what the steps found, and the outcome. */
const OUTCOME_COLUMNS = [
  'buyer_id',
  'company_info',
  'contact_info',
  'discard_reason',
  'evaluation',
  'identity',
  'near_miss',
  'person_key',
  'signal_id',
  'stage',
  'status',
] as const;

/**
 * The Buyer row a fold writes, column by column: `set` columns take the fold's value; `keep`
 * columns keep the stored one when the fold's is null (the first or last Signal did not change).
 */
const BUYER_UPDATE_COLUMNS: ReadonlyArray<readonly [column: string, type: string, mode: 'set' | 'keep']> = [
  ['contact_info', 'json', 'set'],
  ['company_info', 'json', 'set'],
  ['hems', 'json', 'set'],
  ['sources', 'json', 'set'],
  ['evaluation', 'json', 'set'],
  ['is_icp', 'boolean', 'set'],
  ['icp_id', 'bigint', 'set'],
  ['icp_name', 'text', 'set'],
  ['icp_reasoning', 'text', 'set'],
  ['is_persona', 'boolean', 'set'],
  ['persona_id', 'bigint', 'set'],
  ['persona_name', 'text', 'set'],
  ['persona_reasoning', 'text', 'set'],
  ['signal_count_total', 'integer', 'set'],
  ['signal_count_website', 'integer', 'set'],
  ['signal_count_market', 'integer', 'set'],
  ['signal_count_linkedin', 'integer', 'set'],
  ['first_signal_id', 'bigint', 'keep'],
  ['first_signal_type', 'text', 'keep'],
  ['first_signal_trigger', 'text', 'keep'],
  ['first_signal_at', 'timestamptz', 'keep'],
  ['attribution', 'json', 'keep'],
  ['last_signal_id', 'bigint', 'keep'],
  ['last_signal_type', 'text', 'keep'],
  ['last_signal_trigger', 'text', 'keep'],
  ['last_signal_at', 'timestamptz', 'keep'],
];

/** The Buyer update's `SET` list and `unnest` column names, from the table above (fixed, so built once). */
const BUYER_UPDATE_SETS = BUYER_UPDATE_COLUMNS.map(([column, type, mode]) => {
  const value = type === 'json' ? `v.${column}::json` : `v.${column}`;
  return mode === 'set' ? `${column} = ${value}` : `${column} = coalesce(${value}, b.${column})`;
}).join(', ');
const BUYER_UPDATE_NAMES = BUYER_UPDATE_COLUMNS.map(([column]) => column).join(', ');

/**
 * The events of a Match batch, from the rows it writes (`buyer_update`, `signal_insert`) and the
 * Buyers as they were (`buyers`, read in the statement's snapshot, before its update): each Signal
 * created; each Buyer created (its first Signal) or updated; a Buyer that the evaluation made a
 * match of an ICP or Persona it did not match before. In that order, so a reader sees the Signal
 * before the Buyer it changed; numbered from the workspace's counter (see `eventNumbers`).
 */
const EVENTS_SQL = (workspace: string, enabled: string) => `match_events AS (
    SELECT e.*, row_number() OVER (ORDER BY e.k, e.n) AS r FROM (
    SELECT 1 AS k, s.id AS n, 'signal.created' AS type, 'signal' AS object_type, ${signalRowJson('s')} AS data, NULL::json AS previous
      FROM signal_insert s
    UNION ALL
    SELECT 2, b.id, CASE WHEN o.signal_count_total = 0 THEN 'buyer.created' ELSE 'buyer.updated' END, 'buyer', ${buyerRowJson('b')},
           CASE WHEN o.signal_count_total = 0 THEN NULL ELSE ${buyerPreviousJson('o')} END
      FROM buyer_update b JOIN buyers o ON o.workspace_id = b.workspace_id AND o.id = b.id${associationJoins('o')}
    UNION ALL
    SELECT 3, b.id, 'buyer.icp_matched', 'buyer', ${buyerRowJson('b')}, NULL
      FROM buyer_update b JOIN buyers o ON o.workspace_id = b.workspace_id AND o.id = b.id
     WHERE b.is_icp AND NOT (o.is_icp AND o.icp_id IS NOT DISTINCT FROM b.icp_id)
    UNION ALL
    SELECT 4, b.id, 'buyer.persona_matched', 'buyer', ${buyerRowJson('b')}, NULL
      FROM buyer_update b JOIN buyers o ON o.workspace_id = b.workspace_id AND o.id = b.id
     WHERE b.is_persona AND NOT (o.is_persona AND o.persona_id IS NOT DISTINCT FROM b.persona_id)
  ) e WHERE ${enabled}),
  ${eventNumbers('match_event_numbers', workspace, '(SELECT count(*) FROM match_events)')},
  events_insert AS (INSERT INTO events (${EVENT_COLUMNS})
  SELECT ${workspace}, n.last - (SELECT count(*) FROM match_events) + e.r, e.type, e.object_type, e.data, e.previous
    FROM match_events e, match_event_numbers n)`;

const SIGNAL_COLUMNS =
  'id bigint, buyer_id bigint, type text, trigger text, data json, captured_at timestamptz, activity_id bigint, matched json';

/** What a Match batch writes: the Buyers folded, the new Signals, and each activity's outcome. */
export interface MatchWrite {
  folds: readonly BuyerFold[];
  signals: readonly NewSignal[];
  outcomes: ReadonlyArray<{ id: string; changes: ActivityChanges }>;
}

/**
 * The Match step's write, as one statement, the last of the transaction that holds the
 * activities' and Buyers' row locks (sent with its COMMIT, `transactionCommittingBehind`): the
 * Buyers' updates and the Signals' insert as common table expressions, then the activities'
 * outcome, moving each to done.
 */
@Injectable()
export class MatchWriter {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The write of the workspace's batch, to run as its transaction's last statement. */
  statementFor(ctx: WorkspaceContext, write: MatchWrite, now: Date): Statement {
    return MatchWriter.statement(requireWorkspace(ctx), write, now, this.config.eventsEnabled);
  }

  /** The statement and its parameters. */
  /** `events` false writes no events (EVENTS_ENABLED); the statement's text stays the same. */
  static statement(
    workspaceId: string,
    { folds, signals, outcomes }: MatchWrite,
    now: Date,
    events = true,
  ): { sql: string; params: unknown[] } {
    const params = new SqlParams();
    const workspace = params.bind('workspace', workspaceId);
    const $now = params.bind('now', now);
    const buyers = folds.map(({ buyer, evaluation, evaluatedWith, first, last }) => {
      const icp = evaluation!.icp;
      const persona = evaluation!.persona;
      return {
        id: buyer.id,
        contact_info: buyer.contact_info,
        company_info: buyer.company_info,
        hems: buyer.hems,
        sources: buyer.sources,
        evaluation: { ...evaluation!, activity_id: evaluatedWith },
        is_icp: icp.matched,
        icp_id: icp.matched ? icp.id : null,
        icp_name: icp.matched ? icp.name : '',
        icp_reasoning: icp.reasoning,
        is_persona: persona.matched,
        persona_id: persona.matched ? persona.id : null,
        persona_name: persona.matched ? persona.name : '',
        persona_reasoning: persona.reasoning,
        signal_count_total: buyer.signal_count_total,
        signal_count_website: buyer.signal_count_website,
        signal_count_market: buyer.signal_count_market,
        signal_count_linkedin: buyer.signal_count_linkedin,
        ...(first && {
          first_signal_id: buyer.first_signal_id,
          first_signal_type: first.type,
          first_signal_trigger: first.trigger,
          first_signal_at: buyer.first_signal_at,
          attribution: first.attribution,
        }),
        ...(last && {
          last_signal_id: buyer.last_signal_id,
          last_signal_type: last.type,
          last_signal_trigger: last.trigger,
          last_signal_at: buyer.last_signal_at,
        }),
      };
    });
    const rows = signals.map(({ id, buyerId, activity, data, matched }) => ({
      id,
      buyer_id: buyerId,
      type: activity.type,
      trigger: activity.trigger,
      data,
      captured_at: activity.occurred_at,
      activity_id: activity.id,
      matched,
    }));
    // One array per column. The ids also bound the scan of the Buyers (`id = ANY`), so that it
    // reads just these rows by key, whatever the planner believes about the workspace's size.
    const array = (column: string, values: unknown[], type: string) => `${params.bind(`buyers.${column}`, values)}::${type}[]`;
    const buyerIds = array(
      'id',
      buyers.map((buyer) => buyer.id),
      'bigint',
    );
    const arrays = [buyerIds];
    for (const [column, type] of BUYER_UPDATE_COLUMNS) {
      const values = buyers.map((buyer) => (buyer as Record<string, unknown>)[column] ?? null);
      arrays.push(
        type === 'json'
          ? array(
              column,
              values.map((value) => (value === null ? null : JSON.stringify(value))),
              'text',
            )
          : array(column, values, type),
      );
    }
    const $signals = params.bind('signals', JSON.stringify(rows));
    const $events = params.bind('events', events);
    // Locked above and not finished: from whatever stage the row shows (an earlier version stored
    // each step's), each activity moves to done.
    const outcome = advanceManySql(params, { workspaceId, from: null, now }, OUTCOME_COLUMNS, outcomes);
    const sql =
      // A Buyer created in this batch has its id's time, which may be a moment after `now`.
      `WITH buyer_update AS (UPDATE buyers b SET ${BUYER_UPDATE_SETS}, updated_at = GREATEST(b.created_at, ${$now})
         FROM unnest(${arrays.join(', ')}) AS v (id, ${BUYER_UPDATE_NAMES})
        WHERE b.workspace_id = ${workspace} AND b.id = ANY(${buyerIds}) AND b.id = v.id RETURNING b.*), ` +
      `signal_insert AS (INSERT INTO signals (id, workspace_id, buyer_id, type, trigger, data, captured_at, created_at, updated_at, activity_id, matched)
         SELECT s.id, ${workspace}, s.buyer_id, s.type, s.trigger, s.data, s.captured_at, ${$now}, ${$now}, s.activity_id, s.matched
           FROM json_to_recordset(${$signals}::json) AS s (${SIGNAL_COLUMNS}) RETURNING *), ` +
      `${EVENTS_SQL(`${workspace}::bigint`, `${$events}::boolean`)} ` +
      outcome;
    return { sql, params: params.values };
  }
}
