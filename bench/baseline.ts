/**
 * The baseline of the HTTP benchmark: the same requests answered with the same SQL and the same
 * JSON bodies as the API, on bare `node:http` and a `pg.Pool` of the API's size — no framework,
 * no authentication, no rate limit, no request logging or metrics. The difference between the two
 * is what the API's stack costs.
 *
 * Bound to one workspace (and to the API key id that `created_by` names), from the environment:
 *   PORT, DATABASE_URL, CURSOR_SECRET, BASELINE_WORKSPACE_ID (internal decimal id), BASELINE_KEY_ID
 *
 * Only pure functions and declarations come from src/ (presenters, pager, cursor codec, ids, KB
 * field rules and the resources' id prefixes, the pool's type parsers, the KB writes' SQL
 * builders), so the per-request work beyond the framework is the API's own. The Signals and
 * Buyers SQL texts are copied from their repositories, the knowledge-base lists as
 * KbRepository.page builds them from the entity's metadata; the Topic writes are KbRepository's
 * own statements (the change and its event in one statement, then the wait for the flush).
 *
 * `npm run bench` runs it compiled (bench/tsconfig.servers.json), as the API runs: under ts-node
 * Node's `domain` module would be loaded, which slows every EventEmitter in the process.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'pg';
import { DATABASE_TIMEOUT_DEFAULTS } from '../src/config/config';
import { PG_TYPES } from '../src/database/pg-types';
import { pgTimeouts } from '../src/database/timeouts';
import { presentBuyer } from '../src/modules/buyers/buyer-view';
import type { BuyerRow } from '../src/modules/buyers/buyers.repository';
import { BUYER_SELECT } from '../src/modules/buyers/buyers.sql';
import { icpResource } from '../src/modules/kb/icps/icp.resource';
import { profileFields } from '../src/modules/kb/kb-shapes';
import { topicResource } from '../src/modules/kb/topics/topic.resource';
import { presentSignal } from '../src/modules/signals/signal-view';
import type { SignalTrigger, SignalType } from '../src/modules/signals/signal-types';
import { SignalRow, signalsPageSql } from '../src/modules/signals/signals.repository';
import { AppError } from '../src/shared/application/app-error';
import { defineKbDtos, validateKbInput } from '../src/shared/application/kb-fields';
import { keysetPage, KeysetPosition, Page } from '../src/shared/application/pagination';
import { formatTimestamp } from '../src/shared/domain/clock';
import { formatId, ID_PREFIXES, IdGenerator, parseId } from '../src/shared/domain/ids';
import { CursorCodec } from '../src/shared/infrastructure/cursor-codec';
import { DURABLE } from '../src/shared/infrastructure/event-outbox';
import { kbInsertSql, kbSoftDeleteSql } from '../src/shared/infrastructure/kb.repository';
import { keysetSql } from '../src/shared/infrastructure/keyset-sql';

/** The API's pool: `extra` of src/database/data-source.ts. */
export const API_POOL_OPTIONS = { max: 20, ...pgTimeouts(DATABASE_TIMEOUT_DEFAULTS, 'api'), types: PG_TYPES } as const;

interface BaselineConfig {
  port: number;
  databaseUrl: string;
  cursorSecret: string;
  workspaceId: string;
  keyId: string;
}

function readConfig(env: NodeJS.ProcessEnv): BaselineConfig {
  const required = (name: string): string => {
    const value = env[name];
    if (!value) throw new Error(`baseline: ${name} is required`);
    return value;
  };
  return {
    port: Number(required('PORT')),
    databaseUrl: required('DATABASE_URL'),
    cursorSecret: required('CURSOR_SECRET'),
    workspaceId: required('BASELINE_WORKSPACE_ID'),
    keyId: required('BASELINE_KEY_ID'),
  };
}

type Query = URLSearchParams;
type Json = Record<string, unknown>;
interface Answer {
  status: number;
  body?: unknown;
}

/* ---- SQL, copied ---- */

// SignalsRepository.page
function signalsSql(workspaceId: string, query: Query, after: KeysetPosition | null, limit: number) {
  const buyerId = query.get('buyer_id');
  const type = query.get('type');
  const trigger = query.get('trigger');
  const capturedAfter = query.get('captured_after');
  return signalsPageSql(
    workspaceId,
    {
      buyerId: buyerId === null ? undefined : internalId(ID_PREFIXES.buyer, buyerId),
      type: (type ?? undefined) as SignalType | undefined,
      trigger: (trigger ?? undefined) as SignalTrigger | undefined,
      capturedAfter: capturedAfter === null ? undefined : new Date(capturedAfter),
      order: 'desc',
    },
    after,
    limit,
  );
}

// BuyersRepository.page (no created_after / created_before: the scenarios do not use them)
function buyersSql(workspaceId: string, after: KeysetPosition | null, limit: number) {
  const params: unknown[] = [workspaceId];
  const conditions = ['b.workspace_id = $1'];
  const keyset = keysetSql('b', 'created_at', 'desc', after, limit, params);
  if (keyset.where) conditions.push(keyset.where);
  return { sql: `${BUYER_SELECT} WHERE ${conditions.join(' AND ')} ${keyset.tail}`, params };
}

// BuyersRepository.findOne
const BUYER_BY_ID = `${BUYER_SELECT} WHERE b.workspace_id = $1 AND b.id = $2`;

// KbRepository.page and softDelete as the API sends them (columns from the entity's metadata)
const KB_COLUMNS = 'id, workspace_id, name, short_name, description, created_by, created_at, updated_at, deleted_at';
function kbPageSql(table: string, workspaceId: string, after: KeysetPosition | null, limit: number) {
  const params: unknown[] = [workspaceId];
  const keyset = keysetSql('r', 'created_at', 'desc', after, limit, params);
  return {
    sql: `SELECT ${KB_COLUMNS} FROM ${table} r WHERE r.workspace_id = $1 AND r.deleted_at IS NULL${keyset.where ? ` AND ${keyset.where}` : ''} ${keyset.tail}`,
    params,
  };
}

// KbRepository.insert and softDelete: the change and its event in one statement, then the wait
// for its flush (DURABLE) before the answer, as the API writes them (columns in the entity's order)
const TOPIC_NAMES = { table: 'topics', columns: KB_COLUMNS, properties: KB_COLUMNS.split(', ') };
const TOPIC_EVENTS = { path: topicResource.path, events: true };
const TOPIC_INSERT = kbInsertSql(TOPIC_NAMES, TOPIC_EVENTS);
const TOPIC_SOFT_DELETE = kbSoftDeleteSql(TOPIC_NAMES, TOPIC_EVENTS);

/* ---- request handling ---- */

/** Malformed ids of list filters match nothing, as the API's prefixedIdParser makes them. */
function internalId(prefix: string, value: string): string {
  const parsed = parseId(prefix, value);
  return parsed.kind === 'ok' ? parsed.value : '0';
}

const PROFILE_FIELD_NAMES = Object.keys(profileFields);

/** KbService.present for the profile-shaped resources (ICPs, Topics). */
function presentKb(prefix: string, row: Record<string, unknown>): Json {
  const createdBy = row.created_by as { type: string; id: string };
  const view: Json = { id: formatId(prefix, row.id as string), client_id: formatId(ID_PREFIXES.workspace, row.workspace_id as string) };
  for (const name of PROFILE_FIELD_NAMES) view[name] = row[name] ?? '';
  view.created_by = { type: createdBy.type, id: createdBy.id };
  view.created_at = formatTimestamp(row.created_at as Date);
  view.updated_at = formatTimestamp(row.updated_at as Date);
  return view;
}

const topicDtos = defineKbDtos('Topic', profileFields);

class Baseline {
  private readonly pool: Pool;
  private readonly cursors: CursorCodec;
  private readonly ids = new IdGenerator();

  constructor(private readonly config: BaselineConfig) {
    this.pool = new Pool({ connectionString: config.databaseUrl, ...API_POOL_OPTIONS });
    this.cursors = new CursorCodec(Buffer.from(config.cursorSecret));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async route(method: string, url: URL, body: string): Promise<Answer> {
    const path = url.pathname;
    if (method === 'GET' && path === '/health/live') return { status: 200, body: { status: 'ok' } };
    if (method === 'GET' && path === '/v1/signals') return { status: 200, body: await this.signals(url.searchParams) };
    if (method === 'GET' && path === '/v1/buyers') return { status: 200, body: await this.buyers(url.searchParams) };
    if (method === 'GET' && path.startsWith('/v1/buyers/')) return this.buyer(decodeURIComponent(path.slice('/v1/buyers/'.length)));
    if (method === 'GET' && path === '/v1/kb/icps') return { status: 200, body: await this.icps(url.searchParams) };
    if (method === 'POST' && path === '/v1/kb/topics') return { status: 201, body: await this.createTopic(body) };
    if (method === 'DELETE' && path.startsWith('/v1/kb/topics/'))
      return this.deleteTopic(decodeURIComponent(path.slice('/v1/kb/topics/'.length)));
    return { status: 404, body: { error: { code: 'not_found', message: 'No such route.' } } };
  }

  /** Named prepared statements, as the API runs them (see preparedQuery). */
  private readonly statementNames = new Map<string, string>();

  private run(text: string, values: unknown[]) {
    let name = this.statementNames.get(text);
    if (!name) this.statementNames.set(text, (name = `q${this.statementNames.size + 1}`));
    return this.pool.query({ name, text, values });
  }

  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.run(sql, params).then((result) => result.rows as T[]);
  }

  /** KbRepository.write: the change, then, when it made a row, the wait for its flush. */
  private async write(sql: string, params: unknown[]): Promise<number> {
    const { rowCount } = await this.run(sql, params);
    if (rowCount !== 0) await this.run(DURABLE, []);
    return rowCount ?? 0;
  }

  private limit(query: Query): number {
    return Number(query.get('limit') ?? 100);
  }

  private signals(query: Query): Promise<Page<Json>> {
    const capturedAfter = query.get('captured_after');
    return keysetPage({
      cursors: this.cursors,
      binding: {
        workspaceId: this.config.workspaceId,
        endpoint: 'signals',
        params: {
          buyer_id: query.has('buyer_id') ? internalId(ID_PREFIXES.buyer, query.get('buyer_id')!) : '',
          type: query.get('type') ?? '',
          trigger: query.get('trigger') ?? '',
          captured_after: capturedAfter === null ? '' : new Date(capturedAfter).toISOString(),
          captured_before: '',
          sort_by: 'captured_at',
          sort_order: 'desc',
        },
      },
      cursor: query.get('cursor') ?? undefined,
      limit: this.limit(query),
      fetch: (after, limit) => {
        const { sql, params } = signalsSql(this.config.workspaceId, query, after, limit);
        return this.query<SignalRow>(sql, params);
      },
      positionOf: (row) => ({ at: row.captured_at, id: row.id }),
      present: presentSignal,
    });
  }

  private buyers(query: Query): Promise<Page<Json>> {
    return keysetPage({
      cursors: this.cursors,
      binding: {
        workspaceId: this.config.workspaceId,
        endpoint: 'buyers',
        params: { created_after: '', created_before: '', sort_by: 'created_at', sort_order: 'desc' },
      },
      cursor: query.get('cursor') ?? undefined,
      limit: this.limit(query),
      fetch: (after, limit) => {
        const { sql, params } = buyersSql(this.config.workspaceId, after, limit);
        return this.query<BuyerRow>(sql, params);
      },
      positionOf: (row) => ({ at: row.created_at, id: row.id }),
      present: presentBuyer,
    });
  }

  private async buyer(publicId: string): Promise<Answer> {
    const parsed = parseId(ID_PREFIXES.buyer, publicId);
    const rows = parsed.kind === 'ok' ? await this.query<BuyerRow>(BUYER_BY_ID, [this.config.workspaceId, parsed.value]) : [];
    if (rows.length === 0) throw AppError.notFound('Buyer');
    return { status: 200, body: presentBuyer(rows[0]) };
  }

  private icps(query: Query): Promise<Page<Json>> {
    return keysetPage({
      cursors: this.cursors,
      binding: { workspaceId: this.config.workspaceId, endpoint: 'kb/icps', params: {} },
      cursor: query.get('cursor') ?? undefined,
      limit: this.limit(query),
      fetch: async (after, limit) => {
        const { sql, params } = kbPageSql('icps', this.config.workspaceId, after, limit);
        return this.query<Record<string, unknown>>(sql, params);
      },
      positionOf: (row) => ({ at: row.created_at as Date, id: row.id as string }),
      present: (row) => presentKb(icpResource.idPrefix, row),
    });
  }

  /** KbService.create: validate, fill defaults, insert, present what was written. */
  private async createTopic(body: string): Promise<Json> {
    let input: unknown;
    try {
      input = JSON.parse(body);
    } catch {
      throw AppError.validation('body', 'The request body is not valid JSON.');
    }
    const values = validateKbInput(topicDtos.create, input);
    const now = new Date();
    const record: Record<string, unknown> = {
      ...Object.fromEntries(Object.keys(profileFields).map((name) => [name, ''])),
      ...values,
      id: this.ids.next(),
      created_by: { type: 'api_key', id: formatId(ID_PREFIXES.apiKey, this.config.keyId) },
      created_at: now,
      updated_at: now,
    };
    await this.write(TOPIC_INSERT, [
      record.id,
      this.config.workspaceId,
      record.name,
      record.short_name,
      record.description,
      record.created_by,
      now,
      now,
      null,
    ]);
    return presentKb(topicResource.idPrefix, { ...record, workspace_id: this.config.workspaceId });
  }

  private async deleteTopic(publicId: string): Promise<Answer> {
    const parsed = parseId(topicResource.idPrefix, publicId);
    if (parsed.kind !== 'ok') throw AppError.notFound('Topic');
    const deleted = await this.write(TOPIC_SOFT_DELETE, [this.config.workspaceId, parsed.value, new Date()]);
    if (deleted === 0) throw AppError.notFound('Topic');
    return { status: 204 };
  }
}

function send(res: ServerResponse, answer: Answer): void {
  if (answer.body === undefined) {
    res.writeHead(answer.status).end();
    return;
  }
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function failure(error: unknown): Answer {
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: { error: { code: error.code, message: error.message, ...(error.param ? { param: error.param } : {}) } },
    };
  }
  console.error(error);
  return { status: 500, body: { error: { code: 'internal_error', message: 'Internal error.' } } };
}

function readBody(req: IncomingMessage): Promise<string> {
  if (req.method !== 'POST') {
    req.resume();
    return Promise.resolve('');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function main(): void {
  const config = readConfig(process.env);
  const baseline = new Baseline(config);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://baseline');
    void readBody(req)
      .then((body) => baseline.route(req.method ?? 'GET', url, body))
      .catch(failure)
      .then((answer) => send(res, answer));
  });
  server.listen(config.port, '127.0.0.1', () => console.error(`baseline listening on ${config.port}`));
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void baseline.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) main();
