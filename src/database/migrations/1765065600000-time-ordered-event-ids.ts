import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event ids in the form of every other id (DESIGN §1, `src/shared/domain/ids.ts`): milliseconds
 * since 2024-01-01 in the high bits, the low 22 bits from the table's sequence. They were the
 * sequence's bare numbers, `evt_0000000000000000001`, which told one workspace how many events
 * all the others had written in between. The sequence no longer caches, so its numbers are taken
 * in turn across connections and two events of one millisecond never share their low bits.
 * Events written before keep their ids; the feed's order is `seq`, never the id.
 */
export class TimeOrderedEventIds1765065600000 implements MigrationInterface {
  name = 'TimeOrderedEventIds1765065600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER SEQUENCE events_id_seq CACHE 1`);
    await queryRunner.query(
      `ALTER TABLE events ALTER COLUMN id SET DEFAULT
         ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1704067200000) << 22) | (nextval('events_id_seq') & 4194303)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE events ALTER COLUMN id SET DEFAULT nextval('events_id_seq')`);
    await queryRunner.query(`ALTER SEQUENCE events_id_seq CACHE 100`);
  }
}
