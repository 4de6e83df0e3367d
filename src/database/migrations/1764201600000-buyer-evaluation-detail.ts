import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A Buyer keeps its latest evaluation criterion by criterion (`evaluation`), and where the fields
 * an evaluation reads came from (`sources`), so that `GET /v1/buyers/{id}/evaluation` shows the
 * same verdicts as `is_icp` and the reasoning. Both columns are added without rewriting the table
 * (a constant default and a nullable column); Buyers evaluated before have a null `evaluation`
 * until their next Signal.
 */
export class BuyerEvaluationDetail1764201600000 implements MigrationInterface {
  name = 'BuyerEvaluationDetail1764201600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE buyers ADD COLUMN sources json NOT NULL DEFAULT '{}', ADD COLUMN evaluation json`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE buyers DROP COLUMN evaluation, DROP COLUMN sources`);
  }
}
