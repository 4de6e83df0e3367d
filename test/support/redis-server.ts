import { ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';
import { freePort } from './ports';
import { startTestApp, TestApp } from './test-app';

/** A private redis-server on a free port, which a test can stop and start again to cut Redis off. */
export class RedisServer {
  private process?: ChildProcess;

  private constructor(private readonly port: number) {}

  private get running(): boolean {
    return !!this.process && this.process.exitCode === null && this.process.signalCode === null;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.start();
    return server;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.process = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i++) {
      const client = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        if ((await client.ping()) === 'PONG') return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        client.disconnect();
      }
    }
    throw new Error('redis-server did not start');
  }

  /** Waits (up to 10 s) until no other client is connected. */
  async waitForNoClients(): Promise<void> {
    const admin = new Redis(this.url, { retryStrategy: () => null, maxRetriesPerRequest: 0 });
    admin.on('error', () => undefined);
    try {
      for (let i = 0; i < 200; i++) {
        const list = (await admin.client('LIST')) as string;
        if (list.trim().split('\n').length <= 1) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      admin.disconnect();
    }
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * A test app whose Redis is a private server the test can cut off. `close` brings Redis back so
 * the app closes cleanly, then stops it once every client of the app has gone (a late reconnect
 * would otherwise keep retrying against a dead port).
 */
export async function startAppWithPrivateRedis(
  overrides: NodeJS.ProcessEnv = {},
): Promise<{ t: TestApp; redis: RedisServer; close(): Promise<void> }> {
  const redis = await RedisServer.start();
  const t = await startTestApp({ ...overrides, REDIS_URL: redis.url });
  return {
    t,
    redis,
    async close() {
      await redis.start();
      await t.close();
      await redis.waitForNoClients();
      await redis.stop();
    },
  };
}
