import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BuyerEvaluation } from '../buyers/buyer-evaluation';
import type { CompanyInfo, ContactInfo } from '../buyers/buyer-shape';
import type { ResolvedIdentity } from '../../shared/domain/identity';
import type { SignalTrigger, SignalType } from '../signals/signal-types';
import type { ActivityInput } from './activity-input';

export type ActivityStatus = 'queued' | 'processed' | 'discarded';
export type DiscardReason = 'unresolved_identity' | 'excluded_company' | 'no_target_match';
export const DISCARD_REASONS: DiscardReason[] = ['unresolved_identity', 'excluded_company', 'no_target_match'];
export const ACTIVITY_STATUSES: ActivityStatus[] = ['queued', 'processed', 'discarded'];

/**
 * Why a website activity discarded `no_target_match` matched nothing: the active Target Page (a
 * visit) or Target Form (a submission) that came closest, its canonical URL, and the parts of the
 * URL that differed (the rule: `nearestTarget` in the pipeline's domain). Exactly one of the ids.
 */
export interface NearMiss {
  target_page_id?: string;
  target_form_id?: string;
  url: string;
  differences: Array<'host' | 'path' | 'query'>;
}

/** The evaluation made for this activity, criterion verdicts included (absent on rows from before they were kept). */
export type ActivityEvaluation = BuyerEvaluation;

/**
 * A raw activity and its outcome. The pipeline's jobs carry what its steps find from one to the
 * next; Match stores it here with the outcome, in the same statement that moves `stage` to done
 * (until then it reads `resolve`; rows an earlier version processed may show a later stage).
 */
/**
 * The pipeline step an activity waits for, or `done`: the values the table's check constraint
 * allows. The pipeline's queues are named after the steps (`PIPELINE_QUEUES`).
 */
export type ActivityStage = 'resolve' | 'enrich' | 'evaluate' | 'match' | 'done';

@Entity('activities')
export class ActivityEntity {
  @PrimaryColumn({ type: 'bigint' }) id: string;
  @PrimaryColumn({ type: 'bigint' }) workspace_id: string;
  @Column({ type: 'text', nullable: true }) external_id: string | null;
  @Column({ type: 'text' }) type: SignalType;
  @Column({ type: 'text' }) trigger: SignalTrigger;
  @Column({ type: 'timestamptz', precision: 3 }) occurred_at: Date;
  @Column({ type: 'json' }) payload: ActivityInput;
  @Column({ type: 'text' }) stage: ActivityStage;
  @Column({ type: 'text' }) status: ActivityStatus;
  @Column({ type: 'text', nullable: true }) discard_reason: DiscardReason | null;
  @Column({ type: 'text', nullable: true }) person_key: string | null;
  @Column({ type: 'json', nullable: true }) identity: ResolvedIdentity | null;
  @Column({ type: 'json', nullable: true }) contact_info: ContactInfo | null;
  @Column({ type: 'json', nullable: true }) company_info: CompanyInfo | null;
  @Column({ type: 'json', nullable: true }) evaluation: ActivityEvaluation | null;
  @Column({ type: 'bigint', nullable: true }) buyer_id: string | null;
  @Column({ type: 'bigint', nullable: true }) signal_id: string | null;
  @Column({ type: 'json', nullable: true }) near_miss: NearMiss | null;
  @Column({ type: 'timestamptz', precision: 3 }) created_at: Date;
  @Column({ type: 'timestamptz', precision: 3 }) updated_at: Date;
}
