import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, QueryRunner } from 'typeorm';
import { ID_PREFIXES, parseId } from '../../shared/domain/ids';
import { OperationError } from '../workspaces/workspaces.service';
import type { KbProfile } from '../pipeline/evaluator';
import { evaluatedPool } from './bulk-seed.pool';
import { DEMO_SITE, DEMO_SITE_CONTENT } from './demo-data';
import {
  CREATE_BUYER_POOL,
  CREATE_PEOPLE_POOL,
  DROP_PEOPLE_POOL,
  FILL_PEOPLE_POOL,
  INSERT_BUYERS,
  INSERT_SIGNALS,
  REFRESH_BUYER_SUMMARIES,
} from './bulk-seed.sql';

const SOURCES = ['google', 'linkedin', 'newsletter', 'g2', 'direct', 'partner'];

/** `INSERT_SIGNALS`' parameters: `count` Signals of the workspace's Buyers over `days`, on the demo's site. */
export function insertSignalsParams(workspaceId: string, count: number, days: number): unknown[] {
  return [
    workspaceId,
    count,
    days,
    DEMO_SITE_CONTENT.paths,
    DEMO_SITE_CONTENT.topics,
    SOURCES,
    DEMO_SITE,
    DEMO_SITE_CONTENT.competitors.map((c) => c.domain),
    DEMO_SITE_CONTENT.competitors.map((c) => c.name),
  ];
}

const BATCH = 50_000;
/** Sessions inserting at once: the generator is CPU-bound in PostgreSQL, one session per core. */
const SESSIONS = 2;

export interface BulkSeedRequest {
  workspaceId: string;
  buyers: number;
  signals: number;
  /** Timestamps are spread over this many days back from now. */
  days?: number;
}

export interface BulkSeedProgress {
  phase: 'buyers' | 'signals' | 'summaries';
  done: number;
  total: number;
}

type Insert = (sql: string, params: unknown[]) => Promise<number>;

/**
 * Fills a workspace with realistic, varied Buyers and Signals for tests and benchmarks. All work
 * is set-based SQL in batches (`generate_series`), never row by row, on a few sessions at once.
 * Buyers are coherent people at generated companies, evaluated by the pipeline's evaluator against
 * the workspace's active ICPs and Personas (once per company and role, `bulk-seed.pool.ts`).
 */
@Injectable()
export class BulkSeedService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async seed(request: BulkSeedRequest, onProgress: (progress: BulkSeedProgress) => void = () => undefined) {
    const workspaceId = await this.checkRequest(request);
    const days = request.days ?? 180;
    const runners = await Promise.all(Array.from({ length: SESSIONS }, () => this.openSession()));
    try {
      const [main] = runners;
      const run = randomBytes(4).toString('hex');
      let buyers = 0;
      if (request.buyers > 0) {
        const [icps, personas] = [
          await this.activeProfiles(main, 'icps', workspaceId),
          await this.activeProfiles(main, 'personas', workspaceId),
        ];
        const pool = evaluatedPool(icps, personas);
        for (const runner of runners) {
          for (const sql of CREATE_PEOPLE_POOL) await runner.query(sql);
          await runner.query(FILL_PEOPLE_POOL[0], [JSON.stringify(pool.companies)]);
          await runner.query(FILL_PEOPLE_POOL[1], [JSON.stringify(pool.roles)]);
          await runner.query('ANALYZE seed_companies; ANALYZE seed_roles');
        }
        buyers = await this.inBatches(runners, 'buyers', request.buyers, onProgress, (insert, count, batch) =>
          insert(INSERT_BUYERS, [
            workspaceId,
            count,
            `${run}:${batch}`,
            days,
            pool.companies.length,
            pool.rolePicks,
            pool.byCompany ? 1 : 0,
          ]),
        );
        for (const runner of runners) await runner.query(DROP_PEOPLE_POOL);
      }
      let signals = 0;
      if (request.signals > 0) {
        for (const runner of runners) {
          await runner.query(CREATE_BUYER_POOL, [workspaceId]);
          await runner.query('ANALYZE seed_buyer_pool');
        }
        signals = await this.inBatches(runners, 'signals', request.signals, onProgress, (insert, count) =>
          insert(INSERT_SIGNALS, insertSignalsParams(workspaceId, count, days)),
        );
        for (const runner of runners) await runner.query('DROP TABLE seed_buyer_pool');
      }
      onProgress({ phase: 'summaries', done: 0, total: 1 });
      // Fresh statistics for the summary query and for the API's plans.
      await main.query('ANALYZE buyers');
      await main.query('ANALYZE signals');
      await main.query(REFRESH_BUYER_SUMMARIES, [workspaceId]);
      onProgress({ phase: 'summaries', done: 1, total: 1 });
      return { workspace_id: request.workspaceId, buyers, signals };
    } finally {
      await Promise.all(runners.map((runner) => runner.release()));
    }
  }

  private async checkRequest(request: BulkSeedRequest): Promise<string> {
    const parsed = parseId(ID_PREFIXES.workspace, request.workspaceId);
    const workspaceId = parsed.kind === 'ok' ? parsed.value : null;
    const found: unknown[] =
      workspaceId === null ? [] : await this.dataSource.query('SELECT 1 FROM workspaces WHERE id = $1', [workspaceId]);
    if (workspaceId === null || found.length === 0) throw new OperationError(`No workspace ${String(request.workspaceId)}`);
    for (const [name, value] of [
      ['buyers', request.buyers],
      ['signals', request.signals],
    ] as const) {
      if (!Number.isInteger(value) || value < 0 || value > 50_000_000) {
        throw new OperationError(`--${name} must be a whole number up to 50,000,000`);
      }
    }
    if (request.signals > 0 && request.buyers === 0) {
      const existing: unknown[] = await this.dataSource.query('SELECT 1 FROM buyers WHERE workspace_id = $1 LIMIT 1', [workspaceId]);
      if (existing.length === 0) throw new OperationError('--signals needs Buyers: give --buyers as well');
    }
    return workspaceId;
  }

  /** A session for large set-based statements: no statement timeout, in-memory sorts, no JIT per batch. */
  private async openSession(): Promise<QueryRunner> {
    const runner = this.dataSource.createQueryRunner();
    await runner.query(`SET statement_timeout = 0; SET work_mem = '256MB'; SET jit = off`);
    return runner;
  }

  /** Active ICPs or Personas, oldest first: the order the pipeline gives the evaluator. */
  private async activeProfiles(runner: QueryRunner, table: 'icps' | 'personas', workspaceId: string): Promise<KbProfile[]> {
    return (await runner.query(
      `SELECT id::text AS id, name, description FROM ${table} WHERE workspace_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
      [workspaceId],
    )) as KbProfile[];
  }

  /**
   * Inserts `total` rows in batches spread over the sessions; a batch that lost rows to an id
   * collision is topped up by a later one.
   */
  private async inBatches(
    runners: QueryRunner[],
    phase: BulkSeedProgress['phase'],
    total: number,
    onProgress: (progress: BulkSeedProgress) => void,
    batch: (insert: Insert, count: number, batchNumber: number) => Promise<number>,
  ): Promise<number> {
    let claimed = 0;
    let done = 0;
    let batches = 0;
    onProgress({ phase, done, total });
    const work = async (runner: QueryRunner) => {
      const insert: Insert = async (sql, params) => (await runner.query(sql, params, true)).affected ?? 0;
      while (claimed < total) {
        const count = Math.min(BATCH, total - claimed);
        claimed += count;
        const inserted = await batch(insert, count, batches++);
        if (inserted === 0) throw new Error(`No ${phase} could be inserted`);
        // Rows lost to a collision are claimed again.
        claimed -= count - inserted;
        done += inserted;
        onProgress({ phase, done, total });
      }
    };
    await Promise.all(runners.map(work));
    return done;
  }
}
