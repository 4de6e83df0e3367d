import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Match rewrites a Buyer with every Signal of the person, so a Buyer gets a new row version each
 * time. When the new version fits on the Buyer's own heap page, PostgreSQL writes it there without
 * new index entries (a HOT update: no Buyer index covers a column Match changes), and the dead
 * versions are pruned from the page by later reads, without waiting for VACUUM. When the page is
 * full, every version lands elsewhere with an entry in each of the four Buyer indexes, and every
 * lookup by person walks all of them until VACUUM runs.
 *
 * So Buyer pages are filled to half on insert, leaving room for the next versions. Pages written
 * before this migration keep their layout until they are rewritten.
 */
export class BuyerUpdatesInPlace1764028800000 implements MigrationInterface {
  name = 'BuyerUpdatesInPlace1764028800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE buyers SET (fillfactor = 50)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE buyers RESET (fillfactor)`);
  }
}
