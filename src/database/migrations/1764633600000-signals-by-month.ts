import { MigrationInterface, QueryRunner } from 'typeorm';
import { addPeriods, initialPartitionsSql, periodStart, SIGNAL_PARTITIONS } from '../partitions';

const COLUMNS = 'id, workspace_id, buyer_id, type, trigger, data, captured_at, created_at, updated_at, activity_id, matched';
/** Monthly partitions made for existing rows reach back at most this far; older rows go to `signals_min`. */
const MONTHS_BACK = 36;

const INDEXES = [
  // One keyset index per filter shape; ascending order walks them backwards.
  `CREATE INDEX signals_list ON signals (workspace_id, captured_at DESC, id DESC)`,
  `CREATE INDEX signals_buyer ON signals (workspace_id, buyer_id, captured_at DESC, id DESC)`,
  `CREATE INDEX signals_type ON signals (workspace_id, type, captured_at DESC, id DESC)`,
  // A trigger belongs to exactly one type, so it alone selects the rows of a type+trigger filter.
  `CREATE INDEX signals_trigger ON signals (workspace_id, trigger, captured_at DESC, id DESC)`,
];
const BUYER_KEY = `ALTER TABLE signals ADD CONSTRAINT signals_workspace_id_buyer_id_fkey
  FOREIGN KEY (workspace_id, buyer_id) REFERENCES buyers (workspace_id, id)`;

/**
 * Signals partitioned by month of `captured_at` (ADR 0052). Unique keys of a partitioned table
 * must contain the partition key, so the primary key becomes `(workspace_id, id, captured_at)`
 * and the one-Signal-per-activity key `(workspace_id, activity_id, captured_at)`: a Signal's
 * `captured_at` is its activity's `occurred_at`, so the activity key still allows one Signal per
 * activity, and ids stay unique as they are minted (time-ordered 64-bit ids, ADR 0003).
 *
 * The existing rows are copied into the new table inside the migration's transaction (a large
 * table takes a while: about a minute per million rows on a small machine; writes wait); months
 * are made from the oldest row's (at most three years back) to three months ahead, and the
 * maintenance job keeps adding months from there.
 */
export class SignalsByMonth1764633600000 implements MigrationInterface {
  name = 'SignalsByMonth1764633600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ oldest }] = (await queryRunner.query(`SELECT min(captured_at) AS oldest FROM signals`)) as Array<{ oldest: Date | null }>;
    await this.setAside(queryRunner);
    await queryRunner.query(
      `CREATE TABLE signals (LIKE signals_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (captured_at)`,
    );
    const spec = SIGNAL_PARTITIONS;
    const current = periodStart(spec.unit, new Date());
    const earliest = addPeriods(spec.unit, current, -MONTHS_BACK);
    const first = oldest && oldest < current ? periodStart(spec.unit, oldest > earliest ? oldest : earliest) : current;
    for (const statement of initialPartitionsSql(spec, first, addPeriods(spec.unit, current, spec.ahead))) {
      await queryRunner.query(statement);
    }
    await queryRunner.query(`INSERT INTO signals (${COLUMNS}) SELECT ${COLUMNS} FROM signals_unpartitioned`);
    await queryRunner.query(`DROP TABLE signals_unpartitioned`);
    await queryRunner.query(`ALTER TABLE signals ADD CONSTRAINT signals_pkey PRIMARY KEY (workspace_id, id, captured_at)`);
    for (const statement of INDEXES) await queryRunner.query(statement);
    await queryRunner.query(
      `CREATE UNIQUE INDEX signals_activity ON signals (workspace_id, activity_id, captured_at) WHERE activity_id IS NOT NULL`,
    );
    await queryRunner.query(BUYER_KEY);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.setAside(queryRunner);
    await queryRunner.query(`CREATE TABLE signals (LIKE signals_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    await queryRunner.query(`INSERT INTO signals (${COLUMNS}) SELECT ${COLUMNS} FROM signals_unpartitioned`);
    await queryRunner.query(`DROP TABLE signals_unpartitioned`);
    await queryRunner.query(`ALTER TABLE signals ADD CONSTRAINT signals_pkey PRIMARY KEY (workspace_id, id)`);
    for (const statement of INDEXES) await queryRunner.query(statement);
    await queryRunner.query(`CREATE UNIQUE INDEX signals_activity ON signals (workspace_id, activity_id) WHERE activity_id IS NOT NULL`);
    await queryRunner.query(BUYER_KEY);
  }

  /** Renames the table out of the way, without the indexes and keys whose names the new one takes. */
  private async setAside(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE signals DROP CONSTRAINT signals_workspace_id_buyer_id_fkey`);
    await queryRunner.query(`ALTER TABLE signals DROP CONSTRAINT signals_pkey`);
    await queryRunner.query(`DROP INDEX signals_list, signals_buyer, signals_type, signals_trigger, signals_activity`);
    await queryRunner.query(`ALTER TABLE signals RENAME TO signals_unpartitioned`);
  }
}
