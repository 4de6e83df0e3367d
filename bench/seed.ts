/**
 * The benchmark's data: two workspaces of equal size in their own database, made with the
 * project's CLI (dist/cli.js). Seeding is skipped when the database already holds both at full
 * size, so reruns start at once.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { dropDatabase } from '../src/database/bootstrap';
import { formatId, ID_PREFIXES, parseId } from '../src/shared/domain/ids';

export const WORKSPACE_NAMES = ['bench-A', 'bench-B'] as const;

const CLI = join(__dirname, '..', 'dist', 'cli.js');

export interface SeedSize {
  buyers: number;
  signals: number;
}

export interface BenchWorkspace {
  /** Public id (`wor_…`). */
  id: string;
  /** Internal decimal id, as the database and cursor bindings use it. */
  internalId: string;
  name: string;
}

export interface CreatedKey {
  api_key: string;
  key_id: string;
}

/** Runs one CLI command and returns the one JSON object it prints. */
export function cli<T>(databaseUrl: string, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`cli ${args.slice(0, 2).join(' ')} failed with code ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as T);
      } catch {
        reject(new Error(`cli ${args.slice(0, 2).join(' ')} printed no JSON: ${out.slice(0, 200)}`));
      }
    });
  });
}

const internal = (publicId: string): string => {
  const parsed = parseId(ID_PREFIXES.workspace, publicId);
  if (parsed.kind !== 'ok') throw new Error(`not a workspace id: ${publicId}`);
  return parsed.value;
};

/** The two workspaces when both exist with exactly the requested numbers of Buyers and Signals. */
async function existingWorkspaces(databaseUrl: string, size: SeedSize): Promise<BenchWorkspace[] | null> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; name: string; buyers: string; signals: string }>(
      `SELECT w.id, w.name,
              (SELECT count(*) FROM buyers b WHERE b.workspace_id = w.id) AS buyers,
              (SELECT count(*) FROM signals s WHERE s.workspace_id = w.id) AS signals
         FROM workspaces w WHERE w.name = ANY($1) ORDER BY w.name`,
      [WORKSPACE_NAMES],
    );
    const complete =
      rows.length === WORKSPACE_NAMES.length &&
      rows.every((row) => Number(row.buyers) === size.buyers && Number(row.signals) === size.signals);
    if (!complete) return null;
    return rows.map((row) => ({ id: formatId(ID_PREFIXES.workspace, row.id), internalId: row.id, name: row.name }));
  } finally {
    await client.end();
  }
}

async function seedWorkspace(databaseUrl: string, name: string, size: SeedSize): Promise<BenchWorkspace> {
  const created = await cli<{ workspace_id: string }>(databaseUrl, ['workspace', 'create', '--name', name]);
  console.error(`seeding ${name} (${created.workspace_id}): ${size.buyers} Buyers, ${size.signals} Signals`);
  const seeded = await cli<{ seconds: number }>(databaseUrl, [
    'seed',
    'bulk',
    '--workspace',
    created.workspace_id,
    '--buyers',
    String(size.buyers),
    '--signals',
    String(size.signals),
  ]);
  console.error(`seeded ${name} in ${seeded.seconds} s`);
  return { id: created.workspace_id, internalId: internal(created.workspace_id), name };
}

/**
 * Makes sure the database holds both workspaces at full size; reseeds from an empty database
 * when it does not (or when `reseed`). The first workspace is the one benchmarked.
 */
export async function ensureSeeded(
  databaseUrl: string,
  size: SeedSize,
  reseed: boolean,
): Promise<{ workspaces: BenchWorkspace[]; seeded: boolean }> {
  if (reseed) await dropDatabase(databaseUrl);
  await cli(databaseUrl, ['migrate']);
  const existing = await existingWorkspaces(databaseUrl, size);
  if (existing) {
    console.error(
      `database already seeded: ${existing.map((w) => w.name).join(', ')} (${size.buyers} Buyers, ${size.signals} Signals each)`,
    );
    return { workspaces: existing, seeded: false };
  }
  await dropDatabase(databaseUrl);
  await cli(databaseUrl, ['migrate']);
  const workspaces: BenchWorkspace[] = [];
  for (const name of WORKSPACE_NAMES) workspaces.push(await seedWorkspace(databaseUrl, name, size));
  return { workspaces, seeded: true };
}

export function createKey(databaseUrl: string, workspace: BenchWorkspace): Promise<CreatedKey> {
  return cli<CreatedKey>(databaseUrl, ['key', 'create', '--workspace', workspace.id]);
}
