import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lets a pipeline step's update of an activity stay on its heap page without new index entries
 * (a HOT update): PostgreSQL can do that only when no index covers, or filters on, a column the
 * update changes, and when the page has room for the new row version.
 *
 * - The sweeper's index moves from (updated_at) WHERE stage <> 'done', which every step changes,
 *   to (created_at) WHERE status = 'queued': neither column changes until the activity is done
 *   (status leaves 'queued' exactly when stage becomes 'done').
 * - New pages of the table are filled to half, leaving the rest for the versions the next steps
 *   write. Existing pages keep their layout until rewritten.
 *
 * The index is built inside the migration's transaction, so intake waits while it is built (one
 * pass over the table). On a large table, build it first with
 * `CREATE INDEX CONCURRENTLY activities_queued …` as below: this migration then keeps it.
 */
export class ActivityUpdatesInPlace1764115200000 implements MigrationInterface {
  name = 'ActivityUpdatesInPlace1764115200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX IF NOT EXISTS activities_queued ON activities (created_at) WHERE status = 'queued'`);
    await queryRunner.query(`DROP INDEX activities_unfinished`);
    await queryRunner.query(`ALTER TABLE activities SET (fillfactor = 50)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE activities RESET (fillfactor)`);
    await queryRunner.query(`CREATE INDEX activities_unfinished ON activities (updated_at) WHERE stage <> 'done'`);
    await queryRunner.query(`DROP INDEX activities_queued`);
  }
}
