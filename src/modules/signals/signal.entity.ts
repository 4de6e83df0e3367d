import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SignalTrigger, SignalType } from './signal-types';

/** A Signal; `data` is the object of its `type`, stored in response shape. */
@Entity('signals')
export class SignalEntity {
  @PrimaryColumn({ type: 'bigint' }) id: string;
  @PrimaryColumn({ type: 'bigint' }) workspace_id: string;
  @Column({ type: 'bigint' }) buyer_id: string;
  @Column({ type: 'text' }) type: SignalType;
  @Column({ type: 'text' }) trigger: SignalTrigger;
  @Column({ type: 'json' }) data: Record<string, unknown>;
  @Column({ type: 'timestamptz', precision: 3 }) captured_at: Date;
  @Column({ type: 'timestamptz', precision: 3 }) created_at: Date;
  @Column({ type: 'timestamptz', precision: 3 }) updated_at: Date;
  /** The activity this Signal came from: at most one Signal per activity. */
  @Column({ type: 'bigint', nullable: true }) activity_id: string | null;
  /** The KB record matched at the time, kept as it was. */
  @Column({ type: 'json', nullable: true }) matched: Record<string, unknown> | null;
}
