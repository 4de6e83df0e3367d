import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { freePort } from './redis-server';
import { waitFor } from './wait';

const run = promisify(execFile);

/**
 * A private Redis Cluster (three masters by default, or one node with every slot) on free ports,
 * its node files in a temporary directory: `start()` makes it and waits for `cluster_state:ok`, `stop()` kills the nodes and
 * removes the directory (call it in `afterAll`; it is safe after a failed start). The shared Redis
 * is never touched.
 */
export class RedisCluster {
  private readonly processes: ChildProcess[] = [];
  private dir?: string;
  readonly ports: number[] = [];
  /**
   * Each node's cluster bus port, reserved like its own: by default Redis takes port + 10000,
   * which nothing checks is free (another test's node or connection may hold it).
   */
  private readonly busPorts: number[] = [];

  /** `REDIS_CLUSTER_NODES` for the app. */
  get nodes(): string {
    return this.ports.map((port) => `127.0.0.1:${port}`).join(',');
  }

  /** Picks the nodes' ports, so that an app can be pointed at a node before it exists. */
  async reservePorts(size = 3): Promise<void> {
    for (let i = this.ports.length; i < size; i++) this.ports.push(await freePort());
    for (let i = this.busPorts.length; i < this.ports.length; i++) this.busPorts.push(await freePort());
  }

  /**
   * Starts the nodes (on the reserved ports, else `size` new ones) and makes them one cluster:
   * with three or more, `redis-cli --cluster create`; a single node is given every slot.
   */
  async start(size = 3): Promise<void> {
    this.dir = mkdtempSync(join(tmpdir(), 'bi-redis-cluster-'));
    // A test process that dies before afterAll still takes its nodes along.
    process.once('exit', () => this.processes.forEach((child) => child.kill('SIGKILL')));
    await this.reservePorts(this.ports.length || size);
    for (const [k, port] of this.ports.entries()) {
      this.processes.push(
        spawn(
          'redis-server',
          [
            ...['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-port', String(this.busPorts[k])],
            ...['--cluster-config-file', join(this.dir, `nodes-${port}.conf`), '--dir', this.dir, '--save', '', '--appendonly', 'no'],
          ],
          { stdio: 'ignore' },
        ),
      );
    }
    for (const port of this.ports)
      await waitFor(
        () => this.ping(port),
        (answer) => answer === 'PONG',
        { what: `redis-server on ${port}` },
      );
    if (this.ports.length === 1) {
      await this.command(this.ports[0], (client) => client.cluster('ADDSLOTSRANGE', 0, 16383));
    } else {
      const nodes = this.ports.map((port) => `127.0.0.1:${port}`);
      await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
    }
    for (const port of this.ports) {
      await waitFor(
        () => this.command(port, (client) => client.cluster('INFO')),
        (info) => /cluster_state:ok/.test(String(info)),
        {
          what: `cluster_state:ok on ${port}`,
        },
      );
    }
  }

  /** Every key on every node that matches `pattern`, by node port. */
  async keysByNode(pattern: string): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    for (const port of this.ports) {
      const { stdout } = await run('redis-cli', ['-p', String(port), '--scan', '--pattern', pattern]);
      out.set(port, stdout.split('\n').filter(Boolean));
    }
    return out;
  }

  /** The port of the master that holds `key`'s slot (its hash tag's, if it has one). */
  async nodeOfKey(key: string): Promise<number> {
    const slot = await this.command(this.ports[0], (client) => client.cluster('KEYSLOT', key));
    const ranges = await this.command(this.ports[0], (client) => client.cluster('SLOTS'));
    const range = (ranges as Array<[number, number, [string, number]]> | null)?.find(
      ([from, to]) => Number(slot) >= from && Number(slot) <= to,
    );
    if (!range) throw new Error(`No node holds the slot of ${key}`);
    return range[2][1];
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.processes.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        return exited;
      }),
    );
    this.processes.length = 0;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  private ping(port: number): Promise<string | null> {
    return this.command(port, (client) => client.ping());
  }

  private async command<T>(port: number, command: (client: Redis) => Promise<T>): Promise<T | null> {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await command(client);
    } catch {
      return null;
    } finally {
      client.disconnect();
    }
  }
}
