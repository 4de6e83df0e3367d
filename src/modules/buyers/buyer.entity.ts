import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Attribution } from '../signals/signal-types';
import type { FieldSources, StoredBuyerEvaluation } from './buyer-evaluation';
import type { CompanyInfo, ContactInfo, Hem } from './buyer-shape';

/**
 * A Buyer. The ICP/Persona evaluation result is kept in columns beside the person and company
 * objects: the read path shows it only while the matched record is still active.
 */
@Entity('buyers')
export class BuyerEntity {
  @PrimaryColumn({ type: 'bigint' }) id: string;
  @PrimaryColumn({ type: 'bigint' }) workspace_id: string;
  @Column({ type: 'text' }) person_key: string;
  @Column({ type: 'json' }) contact_info: ContactInfo;
  @Column({ type: 'json' }) company_info: CompanyInfo;
  @Column({ type: 'json' }) hems: Hem[];
  /** Where the fields an evaluation reads came from, by field path. */
  @Column({ type: 'json', default: () => `'{}'` }) sources: FieldSources;
  /** The latest evaluation with its criterion verdicts, and the activity it was made for; null on Buyers evaluated before verdicts were kept. */
  @Column({ type: 'json', nullable: true }) evaluation: StoredBuyerEvaluation | null;
  @Column({ type: 'json' }) attribution: Attribution;
  @Column({ type: 'boolean' }) is_icp: boolean;
  @Column({ type: 'bigint', nullable: true }) icp_id: string | null;
  @Column({ type: 'text' }) icp_name: string;
  @Column({ type: 'text' }) icp_reasoning: string;
  @Column({ type: 'boolean' }) is_persona: boolean;
  @Column({ type: 'bigint', nullable: true }) persona_id: string | null;
  @Column({ type: 'text' }) persona_name: string;
  @Column({ type: 'text' }) persona_reasoning: string;
  @Column({ type: 'integer' }) signal_count_total: number;
  @Column({ type: 'integer' }) signal_count_website: number;
  @Column({ type: 'integer' }) signal_count_market: number;
  @Column({ type: 'integer' }) signal_count_linkedin: number;
  @Column({ type: 'bigint', nullable: true }) first_signal_id: string | null;
  @Column({ type: 'text' }) first_signal_type: string;
  @Column({ type: 'text' }) first_signal_trigger: string;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) first_signal_at: Date | null;
  @Column({ type: 'bigint', nullable: true }) last_signal_id: string | null;
  @Column({ type: 'text' }) last_signal_type: string;
  @Column({ type: 'text' }) last_signal_trigger: string;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) last_signal_at: Date | null;
  @Column({ type: 'timestamptz', precision: 3 }) created_at: Date;
  @Column({ type: 'timestamptz', precision: 3 }) updated_at: Date;
}
