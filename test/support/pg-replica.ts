import { execFile, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { PgCluster } from './pg-cluster';
import { freePort } from './ports';

const run = promisify(execFile);
const BIN = '/usr/lib/postgresql/15/bin';

/** Replicas this process made and has not dropped yet, stopped and removed on exit if a test could not. */
const alive = new Set<PgReplica>();
process.once('exit', () => {
  for (const replica of alive) replica.dropNow();
});

/** The postgres OS user's ids: the server refuses to run as root, and its files must be its own. */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A streaming replica of a private `PgCluster` (hot standby): `pg_basebackup -R -X stream` into a
 * temporary directory as the postgres OS user, started with `pg_ctl` on a free port with trust
 * authentication on local TCP. It replays the primary's WAL as it comes, so a test can pause and
 * resume its replay to make it fall behind. Drop it in `afterAll` (before its primary); a replica
 * still running when the process exits is stopped and removed then. Needs root, like `PgCluster`.
 */
export class PgReplica {
  private constructor(
    readonly directory: string,
    readonly port: number,
  ) {}

  /** Copies `primary` and starts the copy as its standby; removes it again if it does not start. */
  static async create(primary: PgCluster): Promise<PgReplica> {
    const { uid, gid } = postgresUser();
    const directory = mkdtempSync(join(tmpdir(), 'bi_test_replica_'));
    chownSync(directory, uid, gid);
    const replica = new PgReplica(directory, await freePort());
    alive.add(replica);
    try {
      await run(
        'runuser',
        ['-u', 'postgres', '--', `${BIN}/pg_basebackup`, '-h', '127.0.0.1', '-p', String(primary.port)].concat([
          '-U',
          'postgres',
          '-D',
          replica.dataDirectory,
          '-R',
          '-X',
          'stream',
          '--checkpoint=fast',
        ]),
      );
      // A cluster made by pg_createcluster keeps its configuration outside the data directory.
      const files = {
        'postgresql.conf': [
          `port = ${replica.port}`,
          "listen_addresses = '127.0.0.1'",
          `unix_socket_directories = '${directory}'`,
          'hot_standby = on',
          'fsync = off',
          'full_page_writes = off',
          'shared_buffers = 32MB',
        ],
        'pg_hba.conf': ['local all all trust', 'host all all 127.0.0.1/32 trust'],
      };
      for (const [name, lines] of Object.entries(files)) {
        const path = join(replica.dataDirectory, name);
        writeFileSync(path, `${lines.join('\n')}\n`, { mode: 0o600 });
        chownSync(path, uid, gid);
      }
      await replica.start();
    } catch (error) {
      await replica.drop();
      throw error;
    }
    return replica;
  }

  get dataDirectory(): string {
    return join(this.directory, 'data');
  }

  /** The replica's URL for `database` (the primary's databases, replicated). */
  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Stops the server (fast shutdown: its sessions are terminated). */
  async stop(): Promise<void> {
    await this.pgCtl('stop', '-m', 'fast', '-w');
  }

  /** Starts it again and waits until it accepts connections; it resumes streaming from the primary. */
  async start(): Promise<void> {
    await this.pgCtl('start', '-w', '-t', '30', '-l', join(this.directory, 'server.log'));
  }

  /** Stops the server at once and removes its directory. */
  async drop(): Promise<void> {
    await this.pgCtl('stop', '-m', 'immediate').catch(() => undefined);
    rmSync(this.directory, { recursive: true, force: true });
    alive.delete(this);
  }

  /** `drop` for the process's exit, when nothing asynchronous can run. */
  dropNow(): void {
    spawnSync('runuser', ['-u', 'postgres', '--', `${BIN}/pg_ctl`, '-D', this.dataDirectory, 'stop', '-m', 'immediate'], {
      stdio: 'ignore',
    });
    rmSync(this.directory, { recursive: true, force: true });
    alive.delete(this);
  }

  private async pgCtl(...args: string[]): Promise<void> {
    await run('runuser', ['-u', 'postgres', '--', `${BIN}/pg_ctl`, '-D', this.dataDirectory, ...args]);
  }
}
