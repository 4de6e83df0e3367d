import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { freePort } from './ports';

const run = promisify(execFile);
const VERSION = '15';

/** Clusters this process made and has not dropped yet, dropped on exit if a test could not. */
const alive = new Set<PgCluster>();
process.once('exit', () => {
  for (const cluster of alive) cluster.dropNow();
});

/** The ids of the processes whose parent is `pid`, read from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may contain spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/**
 * A private PostgreSQL 15 cluster on a free port (`pg_createcluster`, trust authentication on
 * local TCP), which a test can stop, start, freeze and thaw without touching the shared server.
 * Needs root (or the postgres user) and postgresql-common's tools. Drop it in `afterAll`; a
 * cluster still alive when the process exits is dropped then.
 */
export class PgCluster {
  private frozen: number[] = [];

  private constructor(
    readonly name: string,
    readonly port: number,
  ) {}

  /** Creates and starts a cluster; drops it again if it does not start. */
  static async create(): Promise<PgCluster> {
    const cluster = new PgCluster(`bi_test_${process.pid}_${randomBytes(3).toString('hex')}`, await freePort());
    alive.add(cluster);
    try {
      await run('pg_createcluster', [
        VERSION,
        cluster.name,
        '--port',
        String(cluster.port),
        '--start-conf=manual',
        // Throw-away data: no need to wait for the disk.
        '-o',
        'fsync=off',
        '-o',
        'synchronous_commit=off',
        '-o',
        'full_page_writes=off',
        '-o',
        'shared_buffers=32MB',
        '--',
        '--auth=trust',
      ]);
      await cluster.start();
    } catch (error) {
      await cluster.drop();
      throw error;
    }
    return cluster;
  }

  /** The maintenance database, as `TEST_DATABASE_ADMIN_URL` would name it. */
  get adminUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Starts the server, unless it runs, and waits until it accepts connections. */
  async start(): Promise<void> {
    this.thaw();
    if (await this.running()) return;
    await run('pg_ctlcluster', [VERSION, this.name, 'start']);
  }

  /** Whether the server runs (frozen or not). */
  async running(): Promise<boolean> {
    // pg_ctlcluster status: exit code 0 when it runs, 3 when it does not.
    return run('pg_ctlcluster', [VERSION, this.name, 'status']).then(
      () => true,
      () => false,
    );
  }

  /** Stops the server (fast shutdown: sessions are terminated, as in a restart). */
  async stop(): Promise<void> {
    this.thaw();
    await run('pg_ctlcluster', [VERSION, this.name, 'stop', '-m', 'fast']);
  }

  /**
   * Freezes the server without stopping it (SIGSTOP to the postmaster, then to every child):
   * connections stay open and the kernel still accepts new ones, but nothing answers.
   */
  freeze(): void {
    if (this.frozen.length > 0) return;
    const postmaster = this.postmasterPid();
    // The postmaster first, so that it forks nothing while its children are stopped.
    signal(postmaster, 'SIGSTOP');
    this.frozen = [postmaster, ...childrenOf(postmaster)];
    for (const pid of this.frozen.slice(1)) signal(pid, 'SIGSTOP');
  }

  /** Lets a frozen server run again (SIGCONT). */
  thaw(): void {
    for (const pid of this.frozen.slice().reverse()) signal(pid, 'SIGCONT');
    this.frozen = [];
  }

  /** Thaws, stops and removes the cluster with its data and log. */
  async drop(): Promise<void> {
    this.thaw();
    await run('pg_dropcluster', ['--stop', VERSION, this.name]).catch(async () => {
      // Not created, or half made: drop what is there.
      if ((await run('pg_lsclusters', ['-h'])).stdout.split('\n').some((line) => line.split(/\s+/)[1] === this.name)) {
        throw new Error(`could not drop cluster ${VERSION}/${this.name}`);
      }
    });
    alive.delete(this);
  }

  /** `drop` for the process's exit, when nothing asynchronous can run. */
  dropNow(): void {
    this.thaw();
    spawnSync('pg_dropcluster', ['--stop', VERSION, this.name], { stdio: 'ignore' });
    alive.delete(this);
  }

  private postmasterPid(): number {
    const { stdout } = spawnSync('pg_lsclusters', ['--json'], { encoding: 'utf8' });
    const cluster = (JSON.parse(stdout) as Array<{ cluster: string; version: number; pgdata: string }>).find(
      (c) => c.cluster === this.name && String(c.version) === VERSION,
    );
    if (!cluster) throw new Error(`no cluster ${VERSION}/${this.name}`);
    const pid = Number(readFileSync(`${cluster.pgdata}/postmaster.pid`, 'utf8').split('\n')[0]);
    if (!Number.isInteger(pid) || pid <= 0) throw new Error(`cluster ${VERSION}/${this.name} is not running`);
    return pid;
  }
}
