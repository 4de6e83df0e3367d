import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Buyers and Signals. What lists filter or sort on is a real column with a keyset index; nested
 * objects that are only ever returned are `json` (kept as written, key order included).
 */
export class BuyersSignals1763856000000 implements MigrationInterface {
  name = 'BuyersSignals1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE buyers (
        id bigint PRIMARY KEY,
        workspace_id bigint NOT NULL REFERENCES workspaces (id),
        person_key text NOT NULL,
        contact_info json NOT NULL,
        company_info json NOT NULL,
        hems json NOT NULL,
        attribution json NOT NULL,
        is_icp boolean NOT NULL DEFAULT false,
        icp_id bigint,
        icp_name text NOT NULL DEFAULT '',
        icp_reasoning text NOT NULL DEFAULT '',
        is_persona boolean NOT NULL DEFAULT false,
        persona_id bigint,
        persona_name text NOT NULL DEFAULT '',
        persona_reasoning text NOT NULL DEFAULT '',
        signal_count_total integer NOT NULL DEFAULT 0,
        signal_count_website integer NOT NULL DEFAULT 0,
        signal_count_market integer NOT NULL DEFAULT 0,
        signal_count_linkedin integer NOT NULL DEFAULT 0,
        first_signal_id bigint,
        first_signal_type text NOT NULL DEFAULT '',
        first_signal_trigger text NOT NULL DEFAULT '',
        first_signal_at timestamptz(3),
        last_signal_id bigint,
        last_signal_type text NOT NULL DEFAULT '',
        last_signal_trigger text NOT NULL DEFAULT '',
        last_signal_at timestamptz(3),
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    // One Buyer per person per workspace (Resolve finds it by this key).
    await queryRunner.query(`CREATE UNIQUE INDEX buyers_person ON buyers (workspace_id, person_key)`);
    await queryRunner.query(`CREATE INDEX buyers_list ON buyers (workspace_id, created_at DESC, id DESC)`);
    // Target of the Signals' tenant-consistent foreign key.
    await queryRunner.query(`CREATE UNIQUE INDEX buyers_workspace_id ON buyers (workspace_id, id)`);

    await queryRunner.query(`
      CREATE TABLE signals (
        id bigint PRIMARY KEY,
        workspace_id bigint NOT NULL,
        buyer_id bigint NOT NULL,
        type text NOT NULL CHECK (type IN ('website', 'market', 'linkedin')),
        trigger text NOT NULL,
        data json NOT NULL,
        captured_at timestamptz(3) NOT NULL,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        -- One check that the Buyer exists and belongs to the same workspace.
        FOREIGN KEY (workspace_id, buyer_id) REFERENCES buyers (workspace_id, id)
      )`);
    // One keyset index per filter shape; ascending order walks them backwards.
    await queryRunner.query(`CREATE INDEX signals_list ON signals (workspace_id, captured_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX signals_buyer ON signals (workspace_id, buyer_id, captured_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX signals_type ON signals (workspace_id, type, captured_at DESC, id DESC)`);
    // A trigger belongs to exactly one type, so it alone selects the rows of a type+trigger filter.
    await queryRunner.query(`CREATE INDEX signals_trigger ON signals (workspace_id, trigger, captured_at DESC, id DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE signals`);
    await queryRunner.query(`DROP TABLE buyers`);
  }
}
