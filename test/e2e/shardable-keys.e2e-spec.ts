import { Client } from 'pg';
import { dropDatabase, prepareDatabase } from '../../src/database/bootstrap';
import { testDatabaseUrl } from '../support/test-app';

/**
 * The tables that are not one workspace's rows, each with the reason (ADR 0051). Every other
 * table is a tenant table: it has `workspace_id`, and each of its unique keys includes it, so a
 * database sharded by workspace can enforce the key on one shard.
 */
const GLOBAL_TABLES: Record<string, string> = {
  workspaces: 'the tenants themselves: their id is the distribution key',
  api_keys: 'a reference table: a request is routed by its key before the workspace is known (lookup by hash)',
  console_users: 'a reference table: a sign-in finds its user by email before the workspace is known (ADR 0058)',
  console_sessions: 'a reference table: a console request is routed by its session token hash, like api_keys (ADR 0058)',
  directory_companies: 'reference data shared by all workspaces (the enrichment directory)',
  directory_people: 'reference data shared by all workspaces (the enrichment directory)',
  migrations: "TypeORM's record of applied migrations",
};

interface UniqueKey {
  table: string;
  key: string;
  columns: string[];
}

describe('keys ready for sharding by workspace', () => {
  const databaseUrl = testDatabaseUrl();
  let db: Client;

  beforeAll(async () => {
    await prepareDatabase(databaseUrl);
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await dropDatabase(databaseUrl);
  });

  const tables = async (): Promise<Array<{ table: string; tenant: boolean }>> => {
    const { rows } = await db.query<{ table: string; tenant: boolean }>(
      `SELECT c.relname AS table,
              EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'workspace_id' AND NOT a.attisdropped) AS tenant
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        ORDER BY 1`,
    );
    return rows;
  };

  it('knows every table: a table without workspace_id is declared global, with its reason', async () => {
    const undeclared = (await tables()).filter(({ table, tenant }) => !tenant && !(table in GLOBAL_TABLES));
    expect(undeclared).toEqual([]);
  });

  it('has workspace_id in every unique key of every tenant table (primary keys and unique indexes)', async () => {
    const tenantTables = (await tables()).filter(({ table, tenant }) => tenant && !(table in GLOBAL_TABLES)).map(({ table }) => table);
    expect(tenantTables.length).toBeGreaterThanOrEqual(17);
    const { rows } = await db.query<UniqueKey>(
      `SELECT t.relname AS table, i.relname AS key,
              array_agg(a.attname ORDER BY k.ordinality) FILTER (WHERE a.attname IS NOT NULL) AS columns
         FROM pg_index x
         JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
         CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ordinality)
         LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
        WHERE n.nspname = 'public' AND x.indisunique AND t.relname = ANY($1)
        GROUP BY t.relname, i.relname
        ORDER BY 1, 2`,
      [tenantTables],
    );
    expect(rows.length).toBeGreaterThanOrEqual(tenantTables.length);
    const without = rows.filter((key) => !key.columns.includes('workspace_id')).map(({ table, key }) => `${table}.${key}`);
    expect(without).toEqual([]);
    // Every tenant table has a primary key, and it leads with workspace_id.
    const primary = await db.query<{ table: string; first: string }>(
      `SELECT t.relname AS table, a.attname AS first
         FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
        WHERE x.indisprimary AND t.relname = ANY($1)`,
      [tenantTables],
    );
    expect(primary.rows.map((row) => row.table).sort()).toEqual([...tenantTables].sort());
    expect(primary.rows.filter((row) => row.first !== 'workspace_id')).toEqual([]);
  });
});
