import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The events outbox: one row per change a client cares about, written by the statement that makes
 * the change, so that no event is lost and none exists for a change that rolled back.
 *
 * `seq` numbers a workspace's events in the order their transactions commit: a writer takes it
 * from the workspace's row in `event_sequences` with an update, whose row lock it holds until it
 * commits, so the next writer of the workspace numbers its events only after this one's are
 * visible. A reader that has seen up to `seq` n can never later find an event below n.
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
        seq bigint NOT NULL,
        type text NOT NULL,
        object_type text NOT NULL,
        data json NOT NULL,
        previous json,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`ALTER SEQUENCE events_id_seq OWNED BY events.id`);
    await queryRunner.query(`CREATE UNIQUE INDEX events_feed ON events (workspace_id, seq)`);
    await queryRunner.query(`CREATE INDEX events_created ON events (created_at)`);
    await queryRunner.query(`CREATE TABLE event_sequences (workspace_id bigint PRIMARY KEY, last bigint NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE event_sequences`);
    await queryRunner.query(`DROP TABLE events`);
  }
}
