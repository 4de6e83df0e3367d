import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Console users and their sessions (ADR 0058). Both are reference tables, like `api_keys`: a
 * sign-in finds its user by email before the workspace is known, and a request finds its session
 * by the token's hash. A user belongs to one workspace; an email names one user in all.
 * Passwords are stored as scrypt hashes with their salt and parameters, sessions as the SHA-256
 * of their token, never the token.
 */
export class ConsoleUsers1764979200000 implements MigrationInterface {
  name = 'ConsoleUsers1764979200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE console_users (
        id bigint PRIMARY KEY,
        workspace_id bigint NOT NULL REFERENCES workspaces (id),
        email text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz(3) NOT NULL,
        disabled_at timestamptz(3)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX console_users_email ON console_users (email)`);
    await queryRunner.query(`CREATE INDEX console_users_workspace ON console_users (workspace_id)`);
    await queryRunner.query(`
      CREATE TABLE console_sessions (
        token_hash bytea PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
        workspace_id bigint NOT NULL,
        created_at timestamptz(3) NOT NULL,
        last_seen_at timestamptz(3) NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX console_sessions_user ON console_sessions (user_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE console_sessions`);
    await queryRunner.query(`DROP TABLE console_users`);
  }
}
