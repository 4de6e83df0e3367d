import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The events outbox: one row per change a client cares about, written by the statement (or in the
 * transaction) that makes the change, so that no event is lost and none exists for a change that
 * rolled back.
 *
 * `txid` is the writing transaction's id (`pg_current_xact_id()`, a default, so every writer gets
 * it). The feed orders by (`txid`, `id`) and shows only events whose transaction is older than
 * every transaction still running (`pg_snapshot_xmin`): an event can then never appear behind a
 * position a reader has already passed, whatever order concurrent writers commit in.
 *
 * `data` is the changed object's row as stored (bigint ids as text); the API presents it as it
 * presents the object itself. `previous` holds the earlier values of an update's columns.
 */
export class Events1764288000000 implements MigrationInterface {
  name = 'Events1764288000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SEQUENCE events_id_seq AS bigint CACHE 100`);
    await queryRunner.query(`
      CREATE TABLE events (
        id bigint PRIMARY KEY DEFAULT nextval('events_id_seq'),
        workspace_id bigint NOT NULL,
        txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        type text NOT NULL,
        object_type text NOT NULL,
        data json NOT NULL,
        previous json,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`ALTER SEQUENCE events_id_seq OWNED BY events.id`);
    await queryRunner.query(`CREATE INDEX events_feed ON events (workspace_id, txid, id)`);
    await queryRunner.query(`CREATE INDEX events_created ON events (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE events`);
  }
}
