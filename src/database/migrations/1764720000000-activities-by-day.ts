import { MigrationInterface, QueryRunner } from 'typeorm';
import { mintedAt } from '../../shared/domain/ids';
import { ACTIVITY_PARTITIONS, addPeriods, initialPartitionsSql, periodStart } from '../partitions';

const COLUMNS =
  'id, workspace_id, external_id, type, trigger, occurred_at, payload, stage, status, discard_reason, person_key, ' +
  'identity, contact_info, company_info, evaluation, buyer_id, signal_id, created_at, updated_at';
/** Daily partitions made for existing rows reach back at most this far; older rows go to `activities_min`. */
const DAYS_BACK = 400;
const WORKSPACE_KEY = `ALTER TABLE activities ADD CONSTRAINT activities_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id)`;
/** The sweeper's index: activities still queued, by arrival (no pipeline step changes either column). */
const QUEUED_INDEX = `CREATE INDEX activities_queued ON activities (created_at) WHERE status = 'queued'`;

/**
 * Activities partitioned by UTC day of arrival, on their time-ordered ids (ADR 0053): the primary
 * key `(workspace_id, id)` already holds the partition key, and a lookup or update by id reads one
 * day. Intake's one-activity-per-external-id key cannot stay on the partitioned table (a unique
 * key must include `id`), so external ids move to `activity_external_ids`, which intake writes in
 * the statement that inserts the activities. Pages are filled to half, as before (ADR 0046), now
 * on each partition.
 *
 * The existing rows are copied inside the migration's transaction (intake waits meanwhile): days
 * are made from the oldest row's (at most 400 days back; older rows go to `activities_min`) to
 * three days ahead, and the maintenance job keeps adding days from there.
 */
export class ActivitiesByDay1764720000000 implements MigrationInterface {
  name = 'ActivitiesByDay1764720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ oldest }] = (await queryRunner.query(`SELECT min(id)::text AS oldest FROM activities`)) as Array<{ oldest: string | null }>;
    await this.setAside(queryRunner);
    await queryRunner.query(
      `CREATE TABLE activities (LIKE activities_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (id)`,
    );
    const spec = ACTIVITY_PARTITIONS;
    const current = periodStart(spec.unit, new Date());
    const earliest = addPeriods(spec.unit, current, -DAYS_BACK);
    const oldestDay = oldest === null ? current : periodStart(spec.unit, mintedAt(oldest));
    const first = oldestDay < current ? (oldestDay > earliest ? oldestDay : earliest) : current;
    for (const statement of initialPartitionsSql(spec, first, addPeriods(spec.unit, current, spec.ahead))) {
      await queryRunner.query(statement);
    }
    await queryRunner.query(`INSERT INTO activities (${COLUMNS}) SELECT ${COLUMNS} FROM activities_unpartitioned`);
    await queryRunner.query(`
      CREATE TABLE activity_external_ids (
        workspace_id bigint NOT NULL REFERENCES workspaces (id),
        external_id text NOT NULL,
        activity_id bigint NOT NULL,
        created_at timestamptz(3) NOT NULL,
        PRIMARY KEY (workspace_id, external_id)
      )`);
    // Retention removes the external ids of the days it drops.
    await queryRunner.query(`CREATE INDEX activity_external_ids_activity ON activity_external_ids (activity_id)`);
    await queryRunner.query(
      `INSERT INTO activity_external_ids (workspace_id, external_id, activity_id, created_at)
       SELECT workspace_id, external_id, id, created_at FROM activities_unpartitioned WHERE external_id IS NOT NULL`,
    );
    await queryRunner.query(`DROP TABLE activities_unpartitioned`);
    await queryRunner.query(`ALTER TABLE activities ADD CONSTRAINT activities_pkey PRIMARY KEY (workspace_id, id)`);
    await queryRunner.query(QUEUED_INDEX);
    await queryRunner.query(WORKSPACE_KEY);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.setAside(queryRunner);
    await queryRunner.query(`CREATE TABLE activities (LIKE activities_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    await queryRunner.query(`ALTER TABLE activities SET (fillfactor = 50)`);
    await queryRunner.query(`INSERT INTO activities (${COLUMNS}) SELECT ${COLUMNS} FROM activities_unpartitioned`);
    await queryRunner.query(`DROP TABLE activities_unpartitioned`);
    await queryRunner.query(`DROP TABLE activity_external_ids`);
    await queryRunner.query(`ALTER TABLE activities ADD CONSTRAINT activities_pkey PRIMARY KEY (workspace_id, id)`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX activities_external_id ON activities (workspace_id, external_id) WHERE external_id IS NOT NULL`,
    );
    await queryRunner.query(QUEUED_INDEX);
    await queryRunner.query(WORKSPACE_KEY);
  }

  /** Renames the table out of the way, without the indexes and keys whose names the new one takes. */
  private async setAside(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE activities DROP CONSTRAINT activities_workspace_id_fkey`);
    await queryRunner.query(`ALTER TABLE activities DROP CONSTRAINT activities_pkey`);
    await queryRunner.query(`DROP INDEX IF EXISTS activities_external_id`);
    await queryRunner.query(`DROP INDEX activities_queued`);
    await queryRunner.query(`ALTER TABLE activities RENAME TO activities_unpartitioned`);
  }
}
