import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `Idempotency-Key`s of the public API (ADR 0045), one row per workspace and key.
 *
 * - The primary key `(workspace_id, key)` is what a first request claims with `INSERT … ON
 *   CONFLICT DO NOTHING`: of two requests with one key, exactly one inserts.
 * - `method`, `path` and `body_hash` (SHA-256 of the canonical JSON body) are what a later
 *   request with the key must match.
 * - While the first request runs, `response_status` is null and `locked_until` is its lease: a
 *   request that finds the lease over takes the claim over under a new `lock_token`, so the
 *   earlier holder can neither store nor release it any more.
 * - Once the request succeeded, `response_status`, `response_headers` and `response_body` (the
 *   answer's JSON text, sealed with SECRETS_KEY since some answers carry a signing secret) are
 *   replayed. The row counts as absent once `created_at` is older than IDEMPOTENCY_TTL_HOURS;
 *   `idempotency_keys_created` serves the pruning.
 */
export class IdempotencyKeys1764460800000 implements MigrationInterface {
  name = 'IdempotencyKeys1764460800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        workspace_id bigint NOT NULL REFERENCES workspaces (id),
        key text NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        body_hash text NOT NULL,
        lock_token uuid NOT NULL,
        locked_until timestamptz(3) NOT NULL,
        response_status smallint,
        response_headers jsonb,
        response_body text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, key)
      )`);
    await queryRunner.query(`CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_keys`);
  }
}
