import { INestApplication } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { DestinationStream } from 'pino';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { configureApp } from '../../src/app.factory';
import { ApiExpressAdapter } from '../../src/shared/interface/http/api-express.adapter';
import { AppModule } from '../../src/app.module';
import { AppConfig, loadConfig } from '../../src/config/config';
import { dropDatabase, prepareDatabase } from '../../src/database/bootstrap';
import { queueGroupPrefixes } from '../../src/modules/pipeline/queue-groups';
import { CreatedWorkspace, WorkspacesService } from '../../src/modules/workspaces/workspaces.service';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A fresh, uniquely named database for one test file, on the server of `adminUrl` (by default
 * `TEST_DATABASE_ADMIN_URL`, else the local server).
 */
export function testDatabaseUrl(adminUrl = ADMIN_URL): string {
  const name = `bi_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export function testConfig(overrides: NodeJS.ProcessEnv = {}, adminUrl = ADMIN_URL): AppConfig {
  return loadConfig({
    DATABASE_URL: testDatabaseUrl(adminUrl),
    CURSOR_SECRET: randomBytes(24).toString('hex'),
    LOG_LEVEL: 'silent',
    RUN_WORKERS: 'false',
    QUEUE_PREFIX: `test-${process.pid}-${randomBytes(4).toString('hex')}`,
    // Tests poll and loop; the rate limit has tests of its own that set it low.
    RATE_LIMIT_LIMIT: '1000000',
    ...overrides,
  });
}

export interface TestWorkspace extends CreatedWorkspace {
  /** `Authorization` header value for this workspace's write key. */
  auth: string;
}

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  http: TestAgent;
  workspaces: WorkspacesService;
  newWorkspace(name?: string): Promise<TestWorkspace>;
  close(): Promise<void>;
}

/**
 * Removes this test run's BullMQ keys (its own prefix, and each queue group's) from Redis, from
 * every seed node of a cluster.
 */
export async function deleteQueueKeys(config: AppConfig): Promise<void> {
  const url = new URL(config.redisUrl);
  const nodes = config.redisClusterNodes ?? [{ host: url.hostname, port: Number(url.port || 6379) }];
  const prefixes = new Set([config.queuePrefix, ...queueGroupPrefixes(config.queuePrefix, config.queueGroups)]);
  for (const node of nodes) {
    const target = new URL(config.redisUrl);
    target.hostname = node.host;
    target.port = String(node.port);
    const redis = new Redis(target.toString(), { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      for (const prefix of prefixes) {
        let cursor = '0';
        do {
          // MATCH is a glob: the braces of a hash tag are literal there.
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
          if (!config.redisClusterNodes) {
            if (keys.length > 0) await redis.del(...keys);
          } else {
            // One key at a time: on a cluster node, the keys of one command must share a slot.
            for (const key of keys) await redis.del(key);
          }
          cursor = next;
        } while (cursor !== '0');
      }
    } catch {
      // A test that points the app at an unreachable Redis has no keys to remove.
    } finally {
      redis.disconnect();
    }
  }
}

/** The API's HTTP application from a compiled module, set up as `createApp` sets up production's. */
export function apiApplication(moduleRef: TestingModule): INestApplication {
  return configureApp(moduleRef.createNestApplication(new ApiExpressAdapter(), { bodyParser: false, logger: false }));
}

export interface TestAppOptions {
  /** The server to make the test database on, as its maintenance database's URL (a private cluster's `adminUrl`). */
  databaseAdminUrl?: string;
  /** Where the app's log lines go (with a `LOG_LEVEL` override; the structured logger is process-wide, so one app per file). */
  logDestination?: DestinationStream;
}

/** The real API on its own database: HTTP through supertest, PostgreSQL for real. */
export async function startTestApp(overrides: NodeJS.ProcessEnv = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(overrides, options.databaseAdminUrl);
  if (!new URL(config.databaseUrl).pathname.includes('test')) throw new Error('Refusing a non-test database');
  await prepareDatabase(config.databaseUrl);
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config, options.logDestination)] }).compile();
  const app = apiApplication(moduleRef);
  await app.init();
  const workspaces = app.get(WorkspacesService);
  return {
    app,
    config,
    http: request(app.getHttpServer()),
    workspaces,
    async newWorkspace(name = 'Test workspace') {
      const created = await workspaces.createWorkspace(name);
      return { ...created, auth: `Bearer ${created.api_key}` };
    },
    async close() {
      await app.close();
      await dropDatabase(config.databaseUrl);
      await deleteQueueKeys(config);
    },
  };
}
