import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The activity list (`GET /ingest/v1/activities`, ADR 0056): a discarded website activity keeps
 * the Target Page or Target Form that came closest (`near_miss`, null otherwise; a nullable
 * column, added without rewriting a partition), and the workspace's discarded activities are
 * found newest first by a partial index, created on the parent and so on every day's partition.
 * Only Match sets `status` to discarded, and `status` is already in an index predicate
 * (`activities_queued`), so the index costs the earlier steps' in-place updates nothing.
 */
export class ActivityNearMisses1764806400000 implements MigrationInterface {
  name = 'ActivityNearMisses1764806400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE activities ADD COLUMN near_miss json`);
    await queryRunner.query(`CREATE INDEX activities_discarded ON activities (workspace_id, id) WHERE status = 'discarded'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX activities_discarded`);
    await queryRunner.query(`ALTER TABLE activities DROP COLUMN near_miss`);
  }
}
