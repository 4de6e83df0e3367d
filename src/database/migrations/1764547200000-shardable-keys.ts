import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tables of one workspace's rows, whose keys now lead with `workspace_id`. */
const TENANT_TABLES = [
  'icps',
  'personas',
  'products',
  'topics',
  'competitors',
  'exclusions',
  'target_pages',
  'target_forms',
  'buyers',
  'signals',
  'activities',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
] as const;

/**
 * Keys ready for sharding by workspace (ADR 0051): every tenant table's primary key is
 * `(workspace_id, id)` and the Signals' activity key is `(workspace_id, activity_id)`, so that
 * a database distributed on `workspace_id` (Citus, or one database per group of workspaces) can
 * enforce them on each shard. Ids stay unique across workspaces as they were minted (time-ordered
 * 64-bit ids, ADR 0003); only the constraints change.
 *
 * The Buyers' separate unique index on `(workspace_id, id)`, which the Signals' foreign key
 * used, becomes the primary key; the key is re-pointed and validated without blocking writes.
 */
export class ShardableKeys1764547200000 implements MigrationInterface {
  name = 'ShardableKeys1764547200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE signals DROP CONSTRAINT signals_workspace_id_buyer_id_fkey`);
    for (const table of TENANT_TABLES) {
      await queryRunner.query(
        `ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD CONSTRAINT ${table}_pkey PRIMARY KEY (workspace_id, id)`,
      );
    }
    await queryRunner.query(`DROP INDEX buyers_workspace_id`);
    await queryRunner.query(
      `ALTER TABLE signals ADD CONSTRAINT signals_workspace_id_buyer_id_fkey
         FOREIGN KEY (workspace_id, buyer_id) REFERENCES buyers (workspace_id, id) NOT VALID`,
    );
    await queryRunner.query(`ALTER TABLE signals VALIDATE CONSTRAINT signals_workspace_id_buyer_id_fkey`);
    await queryRunner.query(`DROP INDEX signals_activity`);
    await queryRunner.query(`CREATE UNIQUE INDEX signals_activity ON signals (workspace_id, activity_id) WHERE activity_id IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX signals_activity`);
    await queryRunner.query(`CREATE UNIQUE INDEX signals_activity ON signals (activity_id) WHERE activity_id IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE signals DROP CONSTRAINT signals_workspace_id_buyer_id_fkey`);
    await queryRunner.query(`CREATE UNIQUE INDEX buyers_workspace_id ON buyers (workspace_id, id)`);
    for (const table of TENANT_TABLES) {
      await queryRunner.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD CONSTRAINT ${table}_pkey PRIMARY KEY (id)`);
    }
    await queryRunner.query(
      `ALTER TABLE signals ADD CONSTRAINT signals_workspace_id_buyer_id_fkey
         FOREIGN KEY (workspace_id, buyer_id) REFERENCES buyers (workspace_id, id)`,
    );
  }
}
