import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each API key was last used, for `key list`: written at most once an hour per key and
 * process, never on the request's own path (the request does not wait for it).
 */
export class ApiKeyLastUse1764892800000 implements MigrationInterface {
  name = 'ApiKeyLastUse1764892800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz(3)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys DROP COLUMN last_used_at`);
  }
}
