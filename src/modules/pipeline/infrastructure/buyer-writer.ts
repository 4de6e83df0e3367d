import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { requireWorkspace, WorkspaceContext } from '../../../shared/application/workspace-context';
import { IdGenerator } from '../../../shared/domain/ids';
import type { ActivityEntity } from '../../activities/activity.entity';
import { BuyerEntity } from '../../buyers/buyer.entity';
import { companyInfoTemplate, contactInfoTemplate, Hem, mergeKnown } from '../../buyers/buyer-shape';
import { SignalEntity } from '../../signals/signal.entity';
import type { MatchedRecord } from '../domain/signal-data';

export interface NewSignal {
  id: string;
  data: Record<string, unknown>;
  matched: MatchedRecord;
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

/**
 * Writes a Signal and folds it into its Buyer, inside the Match transaction: the Buyer row is
 * locked, so concurrent Signals of one person count exactly once each.
 */
@Injectable()
export class BuyerWriter {
  async recordSignal(
    ctx: WorkspaceContext,
    manager: EntityManager,
    activity: ActivityEntity,
    signal: NewSignal,
    ids: IdGenerator,
    now: Date,
  ): Promise<{ buyerId: string }> {
    const workspaceId = requireWorkspace(ctx);
    const attribution = { type: '', source: '', source_name: '', source_logo: '', ...activity.payload.attribution };
    await manager.query(
      `INSERT INTO buyers (id, workspace_id, person_key, contact_info, company_info, hems, attribution, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, '[]', $6, $7, $7)
       ON CONFLICT (workspace_id, person_key) DO NOTHING`,
      [ids.next(), workspaceId, activity.person_key, JSON.stringify(contactInfoTemplate()), JSON.stringify(companyInfoTemplate()), JSON.stringify(attribution), now],
    );
    const buyer = await manager
      .getRepository(BuyerEntity)
      .createQueryBuilder('b')
      .setLock('pessimistic_write')
      .where('b.workspace_id = :workspaceId AND b.person_key = :personKey', { workspaceId, personKey: activity.person_key })
      .getOneOrFail();

    const capturedAt = activity.occurred_at;
    const evaluation = activity.evaluation!;
    const changes: Partial<BuyerEntity> = {
      contact_info: mergeKnown(buyer.contact_info, activity.contact_info!),
      company_info: mergeKnown(buyer.company_info, activity.company_info!),
      hems: mergeHems(activity.identity!.hems, buyer.hems),
      // The latest evaluation describes the Buyer; earlier ones are history.
      is_icp: evaluation.icp.matched,
      icp_id: evaluation.icp.matched ? evaluation.icp.id : null,
      icp_name: evaluation.icp.matched ? evaluation.icp.name : '',
      icp_reasoning: evaluation.icp.reasoning,
      is_persona: evaluation.persona.matched,
      persona_id: evaluation.persona.matched ? evaluation.persona.id : null,
      persona_name: evaluation.persona.matched ? evaluation.persona.name : '',
      persona_reasoning: evaluation.persona.reasoning,
      signal_count_total: buyer.signal_count_total + 1,
      signal_count_website: buyer.signal_count_website + (activity.type === 'website' ? 1 : 0),
      signal_count_market: buyer.signal_count_market + (activity.type === 'market' ? 1 : 0),
      signal_count_linkedin: buyer.signal_count_linkedin + (activity.type === 'linkedin' ? 1 : 0),
      updated_at: now,
    };
    if (earlier(capturedAt, signal.id, buyer.first_signal_at, buyer.first_signal_id)) {
      Object.assign(changes, {
        first_signal_id: signal.id, first_signal_type: activity.type, first_signal_trigger: activity.trigger,
        first_signal_at: capturedAt, attribution,
      });
    }
    if (!earlier(capturedAt, signal.id, buyer.last_signal_at, buyer.last_signal_id) || buyer.last_signal_id === null) {
      Object.assign(changes, {
        last_signal_id: signal.id, last_signal_type: activity.type, last_signal_trigger: activity.trigger, last_signal_at: capturedAt,
      });
    }
    await manager.getRepository(BuyerEntity).update({ workspace_id: workspaceId, id: buyer.id }, changes as never);
    await manager.getRepository(SignalEntity).insert({
      id: signal.id,
      workspace_id: workspaceId,
      buyer_id: buyer.id,
      type: activity.type,
      trigger: activity.trigger,
      data: signal.data,
      captured_at: capturedAt,
      created_at: now,
      updated_at: now,
      activity_id: activity.id,
      matched: signal.matched,
    } as never);
    return { buyerId: buyer.id };
  }
}
