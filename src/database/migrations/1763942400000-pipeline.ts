import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Raw activities and their progress through the pipeline, the enrichment directory, and the
 * link from a Signal back to the activity it came from (one Signal per activity at most).
 */
export class Pipeline1763942400000 implements MigrationInterface {
  name = 'Pipeline1763942400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE activities (
        id bigint PRIMARY KEY,
        workspace_id bigint NOT NULL REFERENCES workspaces (id),
        external_id text,
        type text NOT NULL CHECK (type IN ('website', 'market', 'linkedin')),
        trigger text NOT NULL,
        occurred_at timestamptz(3) NOT NULL,
        payload json NOT NULL,
        stage text NOT NULL DEFAULT 'resolve' CHECK (stage IN ('resolve', 'enrich', 'evaluate', 'match', 'done')),
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'processed', 'discarded')),
        discard_reason text,
        person_key text,
        identity json,
        contact_info json,
        company_info json,
        evaluation json,
        buyer_id bigint,
        signal_id bigint,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    // The same external_id again in a workspace is a duplicate, not a second activity.
    await queryRunner.query(
      `CREATE UNIQUE INDEX activities_external_id ON activities (workspace_id, external_id) WHERE external_id IS NOT NULL`,
    );
    // Lets the sweeper find activities whose job may never have reached the queue.
    await queryRunner.query(`CREATE INDEX activities_unfinished ON activities (updated_at) WHERE stage <> 'done'`);

    // Match looks Target Pages and Forms up by canonical URL.
    for (const table of ['target_pages', 'target_forms']) {
      await queryRunner.query(`CREATE INDEX ${table}_canonical_url ON ${table} (workspace_id, canonical_url) WHERE deleted_at IS NULL`);
    }

    await queryRunner.query(`ALTER TABLE signals ADD COLUMN activity_id bigint, ADD COLUMN matched json`);
    await queryRunner.query(`CREATE UNIQUE INDEX signals_activity ON signals (activity_id) WHERE activity_id IS NOT NULL`);

    await queryRunner.query(`
      CREATE TABLE directory_companies (
        domain text PRIMARY KEY,
        data json NOT NULL,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE directory_people (
        email text PRIMARY KEY,
        email_sha256 text NOT NULL,
        email_sha1 text NOT NULL,
        email_md5 text NOT NULL,
        linkedin text,
        company_domain text,
        data json NOT NULL,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX directory_people_sha256 ON directory_people (email_sha256)`);
    await queryRunner.query(`CREATE INDEX directory_people_sha1 ON directory_people (email_sha1)`);
    await queryRunner.query(`CREATE INDEX directory_people_md5 ON directory_people (email_md5)`);
    await queryRunner.query(`CREATE INDEX directory_people_linkedin ON directory_people (linkedin) WHERE linkedin IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE directory_people`);
    await queryRunner.query(`DROP TABLE directory_companies`);
    await queryRunner.query(`DROP INDEX signals_activity`);
    await queryRunner.query(`ALTER TABLE signals DROP COLUMN activity_id, DROP COLUMN matched`);
    await queryRunner.query(`DROP INDEX target_pages_canonical_url`);
    await queryRunner.query(`DROP INDEX target_forms_canonical_url`);
    await queryRunner.query(`DROP TABLE activities`);
  }
}
