import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { requireWorkspace, WorkspaceContext } from '../../../shared/application/workspace-context';
import type { ActivityEntity } from '../../activities/activity.entity';
import type { BuyerEntity } from '../../buyers/buyer.entity';
import { companyInfoTemplate, contactInfoTemplate, Hem, mergeKnown } from '../../buyers/buyer-shape';
import { Attribution, emptyAttribution } from '../../signals/signal-types';
import type { MatchedRecord } from '../domain/signal-data';
import { preparedQuery } from '../../../shared/infrastructure/prepared-query';

export interface NewSignal {
  id: string;
  data: Record<string, unknown>;
  matched: MatchedRecord;
}

/** What folding a Signal into a Buyer reads from the Buyer. */
type LockedBuyer = Pick<
  BuyerEntity,
  | 'id' | 'contact_info' | 'company_info' | 'hems' | 'signal_count_total' | 'signal_count_website' | 'signal_count_market'
  | 'signal_count_linkedin' | 'first_signal_id' | 'first_signal_at' | 'last_signal_id' | 'last_signal_at'
>;

/** A statement's data-modifying parts, to run as `WITH …` in front of another statement. */
export interface WriteCtes {
  ctes: string;
  params: unknown[];
}

function earlier(aAt: Date, aId: string, bAt: Date | null, bId: string | null): boolean {
  if (bAt === null || bId === null) return true;
  return aAt.getTime() < bAt.getTime() || (aAt.getTime() === bAt.getTime() && BigInt(aId) < BigInt(bId));
}

function mergeHems(a: Hem[], b: Hem[]): Hem[] {
  const byType = new Map<string, Hem>();
  for (const hem of [...a, ...b]) if (!byType.has(hem.type)) byType.set(hem.type, hem);
  return [...byType.values()];
}

/** `$n` placeholders for values appended to `params`. */
function binder(params: unknown[]): (value: unknown) => string {
  return (value) => `$${params.push(value)}`;
}

/**
 * Writes a Signal and folds it into its Buyer, inside the Match transaction: the Buyer row is
 * locked, so concurrent Signals of one person count exactly once each.
 */
@Injectable()
export class BuyerWriter {
  /**
   * The person's Buyer, created if new, locked for the rest of the transaction. One statement:
   * the no-op `DO UPDATE` of an existing row takes its row lock and returns it.
   */
  async lockOrCreate(
    ctx: WorkspaceContext,
    manager: EntityManager,
    activity: ActivityEntity,
    newBuyerId: string,
    now: Date,
  ): Promise<LockedBuyer> {
    const { rows } = await preparedQuery<LockedBuyer>(
      manager,
      `INSERT INTO buyers AS b (id, workspace_id, person_key, contact_info, company_info, hems, attribution, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, '[]', $6, $7, $7)
       ON CONFLICT (workspace_id, person_key) DO UPDATE SET updated_at = b.updated_at
       RETURNING b.id, b.contact_info, b.company_info, b.hems, b.signal_count_total, b.signal_count_website,
                 b.signal_count_market, b.signal_count_linkedin, b.first_signal_id, b.first_signal_at,
                 b.last_signal_id, b.last_signal_at`,
      [
        newBuyerId, requireWorkspace(ctx), activity.person_key, JSON.stringify(contactInfoTemplate()),
        JSON.stringify(companyInfoTemplate()), JSON.stringify(attributionOf(activity)), now,
      ],
    );
    return rows[0];
  }

  /**
   * The Buyer's update and the Signal's insert as common table expressions, so the Match step
   * writes them and moves the activity on in a single round trip.
   */
  foldCtes(ctx: WorkspaceContext, buyer: LockedBuyer, activity: ActivityEntity, signal: NewSignal, now: Date): WriteCtes {
    const params: unknown[] = [];
    const $ = binder(params);
    const workspace = $(requireWorkspace(ctx));
    const capturedAt = activity.occurred_at;
    const evaluation = activity.evaluation!;
    const icp = evaluation.icp.matched ? evaluation.icp : { id: null, name: '' };
    const persona = evaluation.persona.matched ? evaluation.persona : { id: null, name: '' };
    const sets = [
      `contact_info = ${$(JSON.stringify(mergeKnown(buyer.contact_info, activity.contact_info!)))}`,
      `company_info = ${$(JSON.stringify(mergeKnown(buyer.company_info, activity.company_info!)))}`,
      `hems = ${$(JSON.stringify(mergeHems(activity.identity!.hems, buyer.hems)))}`,
      // The latest evaluation describes the Buyer; earlier ones are history.
      `is_icp = ${$(evaluation.icp.matched)}`,
      `icp_id = ${$(icp.id)}`,
      `icp_name = ${$(icp.name)}`,
      `icp_reasoning = ${$(evaluation.icp.reasoning)}`,
      `is_persona = ${$(evaluation.persona.matched)}`,
      `persona_id = ${$(persona.id)}`,
      `persona_name = ${$(persona.name)}`,
      `persona_reasoning = ${$(evaluation.persona.reasoning)}`,
      `signal_count_total = ${$(buyer.signal_count_total + 1)}`,
      `signal_count_website = ${$(buyer.signal_count_website + (activity.type === 'website' ? 1 : 0))}`,
      `signal_count_market = ${$(buyer.signal_count_market + (activity.type === 'market' ? 1 : 0))}`,
      `signal_count_linkedin = ${$(buyer.signal_count_linkedin + (activity.type === 'linkedin' ? 1 : 0))}`,
      `updated_at = ${$(now)}`,
    ];
    if (earlier(capturedAt, signal.id, buyer.first_signal_at, buyer.first_signal_id)) {
      sets.push(
        `first_signal_id = ${$(signal.id)}`, `first_signal_type = ${$(activity.type)}`, `first_signal_trigger = ${$(activity.trigger)}`,
        `first_signal_at = ${$(capturedAt)}`, `attribution = ${$(JSON.stringify(attributionOf(activity)))}`,
      );
    }
    if (!earlier(capturedAt, signal.id, buyer.last_signal_at, buyer.last_signal_id) || buyer.last_signal_id === null) {
      sets.push(
        `last_signal_id = ${$(signal.id)}`, `last_signal_type = ${$(activity.type)}`, `last_signal_trigger = ${$(activity.trigger)}`,
        `last_signal_at = ${$(capturedAt)}`,
      );
    }
    const buyerId = $(buyer.id);
    const timestamp = $(now);
    const ctes = [
      `buyer_update AS (UPDATE buyers SET ${sets.join(', ')} WHERE workspace_id = ${workspace} AND id = ${buyerId})`,
      `signal_insert AS (INSERT INTO signals (id, workspace_id, buyer_id, type, trigger, data, captured_at, created_at, updated_at, activity_id, matched)
        VALUES (${$(signal.id)}, ${workspace}, ${buyerId}, ${$(activity.type)}, ${$(activity.trigger)}, ${$(JSON.stringify(signal.data))},
                ${$(capturedAt)}, ${timestamp}, ${timestamp}, ${$(activity.id)}, ${$(JSON.stringify(signal.matched))}))`,
    ];
    return { ctes: ctes.join(', '), params };
  }
}

function attributionOf(activity: ActivityEntity): Attribution {
  return { ...emptyAttribution(), ...activity.payload.attribution };
}
