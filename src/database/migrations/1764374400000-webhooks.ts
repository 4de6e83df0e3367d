import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoints, their delivery attempts, and the dispatcher's position in the events.
 *
 * - `secret` (and `previous_secret` during a rotation) are encrypted (AES-256-GCM with
 *   SECRETS_KEY); they are needed to sign, so they cannot be hashed.
 * - `failing_since` is set by the first failed delivery after a success and cleared by the next
 *   success: an endpoint failing for three days is disabled.
 * - `webhook_dispatch` holds, per workspace with an endpoint, the `seq` of its events up to which
 *   deliveries have been queued.
 */
export class Webhooks1764374400000 implements MigrationInterface {
  name = 'Webhooks1764374400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhook_endpoints (
        id bigint PRIMARY KEY,
        workspace_id bigint NOT NULL REFERENCES workspaces (id),
        url text NOT NULL,
        description text NOT NULL DEFAULT '',
        enabled_events text[] NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_expires_at timestamptz(3),
        failing_since timestamptz(3),
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        deleted_at timestamptz(3)
      )`);
    await queryRunner.query(
      `CREATE INDEX webhook_endpoints_list ON webhook_endpoints (workspace_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id bigint PRIMARY KEY,
        workspace_id bigint NOT NULL,
        endpoint_id bigint NOT NULL,
        event_id bigint,
        message_id text NOT NULL,
        event_type text NOT NULL,
        attempt integer NOT NULL,
        status_code integer,
        error text,
        latency_ms integer NOT NULL,
        response_excerpt text NOT NULL DEFAULT '',
        succeeded boolean NOT NULL,
        next_retry_at timestamptz(3),
        created_at timestamptz(3) NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_list ON webhook_deliveries (workspace_id, endpoint_id, created_at DESC, id DESC)`,
    );
    await queryRunner.query(`CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at)`);
    await queryRunner.query(`CREATE TABLE webhook_dispatch (workspace_id bigint PRIMARY KEY, seq bigint NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_dispatch`);
    await queryRunner.query(`DROP TABLE webhook_deliveries`);
    await queryRunner.query(`DROP TABLE webhook_endpoints`);
  }
}
