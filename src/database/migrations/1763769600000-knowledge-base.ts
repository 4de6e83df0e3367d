import { MigrationInterface, QueryRunner } from 'typeorm';

/** Table name → the columns that resource adds to the common knowledge-base columns. */
const KB_TABLES: Record<string, string[]> = {
  icps: [],
  personas: [],
  products: [],
  topics: [],
  competitors: [`domain text NOT NULL`, `linkedin text NOT NULL DEFAULT ''`, `logo text NOT NULL DEFAULT ''`],
  exclusions: [`domain text NOT NULL`, `linkedin text NOT NULL DEFAULT ''`, `logo text NOT NULL DEFAULT ''`],
  target_pages: [`url text NOT NULL`, `canonical_url text NOT NULL`],
  target_forms: [`url text NOT NULL`, `canonical_url text NOT NULL`],
};

export class KnowledgeBase1763769600000 implements MigrationInterface {
  name = 'KnowledgeBase1763769600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE workspaces (
        id bigint PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id bigint PRIMARY KEY,
        workspace_id bigint NOT NULL REFERENCES workspaces (id),
        key_hash bytea NOT NULL,
        display_prefix text NOT NULL,
        scope text NOT NULL CHECK (scope IN ('read', 'write')),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        revoked_at timestamptz(3)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX api_keys_key_hash ON api_keys (key_hash)`);
    await queryRunner.query(`CREATE INDEX api_keys_workspace ON api_keys (workspace_id)`);

    for (const [table, extra] of Object.entries(KB_TABLES)) {
      await queryRunner.query(`
        CREATE TABLE ${table} (
          id bigint PRIMARY KEY,
          workspace_id bigint NOT NULL REFERENCES workspaces (id),
          name text NOT NULL,
          short_name text NOT NULL,
          description text NOT NULL DEFAULT '',
          ${extra.map((column) => `${column},`).join('\n          ')}
          created_by jsonb NOT NULL,
          created_at timestamptz(3) NOT NULL,
          updated_at timestamptz(3) NOT NULL,
          deleted_at timestamptz(3)
        )`);
      // One active record per short name; deleted records free theirs (DESIGN §1).
      await queryRunner.query(
        `CREATE UNIQUE INDEX ${table}_short_name_active ON ${table} (workspace_id, short_name) WHERE deleted_at IS NULL`,
      );
      // Serves the list order (created_at desc, id desc) by keyset.
      await queryRunner.query(`CREATE INDEX ${table}_list ON ${table} (workspace_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of Object.keys(KB_TABLES)) await queryRunner.query(`DROP TABLE ${table}`);
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE workspaces`);
  }
}
