import { Column, PrimaryColumn } from 'typeorm';
import type { Actor } from '../application/workspace-context';

/**
 * Columns shared by the knowledge-base tables. Property names are the column names, so a
 * `RETURNING *` row and a loaded entity have the same shape. Ids and workspace ids are PostgreSQL
 * `bigint`, which the driver returns as decimal strings.
 */
export abstract class KbRecordEntity {
  // The key leads with the workspace, as on every tenant table (ADR 0051).
  @PrimaryColumn({ type: 'bigint' })
  workspace_id: string;

  @PrimaryColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  short_name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'jsonb' })
  created_by: Actor;

  @Column({ type: 'timestamptz', precision: 3 })
  created_at: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  updated_at: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  deleted_at: Date | null;
}

/** The company-information columns of Competitors and Exclusions. */
export abstract class KbCompanyEntity extends KbRecordEntity {
  @Column({ type: 'text' })
  domain: string;

  @Column({ type: 'text', default: '' })
  linkedin: string;

  @Column({ type: 'text', default: '' })
  logo: string;
}

/** The page columns of Target Pages and Target Forms. */
export abstract class KbPageEntity extends KbRecordEntity {
  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text' })
  canonical_url: string;
}
