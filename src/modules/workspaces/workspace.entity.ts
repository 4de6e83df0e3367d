import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { KeyScope } from '../../shared/application/workspace-context';

@Entity('workspaces')
export class WorkspaceEntity {
  @PrimaryColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'timestamptz', precision: 3 })
  created_at: Date;
}

/** An API key: only its SHA-256 hash and a short display prefix are stored. */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'bigint' })
  workspace_id: string;

  @Column({ type: 'bytea' })
  key_hash: Buffer;

  @Column({ type: 'text' })
  display_prefix: string;

  @Column({ type: 'text' })
  scope: KeyScope;

  @Column({ type: 'timestamptz', precision: 3 })
  created_at: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  revoked_at: Date | null;

  /** Within the hour: recorded at most once an hour per key and process. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  last_used_at: Date | null;
}
