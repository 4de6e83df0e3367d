import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { freePort } from './ports';
import { waitFor } from './wait';

const run = promisify(execFile);

/** How many times a node that exits before answering (its port was taken meanwhile) is started again. */
const NODE_ATTEMPTS = 3;

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
   * Each node's cluster bus port, chosen like its own: by default Redis takes port + 10000, which
   * nothing checks is free (another test's node or connection may hold it).
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
   * with three or more, `redis-cli --cluster create`; a single node is given every slot. A node
   * whose port was taken before it bound it is started again on other ports (its own port only if
   * `start` chose it: a reserved one may already be in an app's configuration).
   */
  async start(size = 3): Promise<void> {
    this.dir = mkdtempSync(join(tmpdir(), 'bi-redis-cluster-'));
    // A test process that dies before afterAll still takes its nodes along.
    process.once('exit', () => this.processes.forEach((child) => child.kill('SIGKILL')));
    const reserved = this.ports.length > 0;
    await this.reservePorts(this.ports.length || size);
    for (let k = 0; k < this.ports.length; k++) await this.startNode(k, reserved);
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

  /** Starts node `k` and waits until it answers; see `start`. */
  private async startNode(k: number, reserved: boolean): Promise<void> {
    const dir = this.dir as string;
    for (let attempt = 1; ; attempt++) {
      const port = this.ports[k];
      const child = spawn(
        'redis-server',
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-port', String(this.busPorts[k])],
          ...['--cluster-config-file', join(dir, `nodes-${port}.conf`), '--dir', dir, '--save', '', '--appendonly', 'no'],
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      this.processes.push(child);
      let output = '';
      const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-2000));
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const exited = () => child.exitCode !== null || child.signalCode !== null;
      const answer = await waitFor(
        async () => (exited() ? 'exited' : await this.ping(port)),
        (value) => value === 'PONG' || value === 'exited',
        { what: `redis-server on ${port}` },
      );
      if (answer === 'PONG') return;
      if (attempt === NODE_ATTEMPTS) throw new Error(`redis-server on ${port} exited before answering:\n${output}`);
      if (!reserved) this.ports[k] = await freePort();
      this.busPorts[k] = await freePort();
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
