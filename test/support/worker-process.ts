import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import type { AppConfig } from '../../src/config/config';
import type { CliResult } from './cli';

const ROOT = resolve(__dirname, '..', '..');
const WORKER = join(ROOT, 'dist', 'worker.js');
const CLI = join(ROOT, 'dist', 'cli.js');
const CONSOLE = join(ROOT, 'dist', 'console.js');

/**
 * Separate pipeline worker processes (`dist/worker.js`) and CLI runs that share a test app's
 * database and Redis key prefix. Every child is tracked so that `killAllChildren` can clean up.
 */

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
  /** True once the process has exited. */
  hasExited(): boolean;
  output(): string;
}

const children = new Set<ChildProcess>();

/** The environment a worker or CLI needs to share `config`'s database and queues. */
export function childEnv(config: AppConfig, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    QUEUE_PREFIX: config.queuePrefix,
    QUEUE_GROUPS: String(config.queueGroups),
    ...(config.redisClusterNodes
      ? {
          REDIS_CLUSTER_NODES: config.redisClusterNodes
            .map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`)
            .join(','),
        }
      : {}),
    CURSOR_SECRET: randomBytes(16).toString('hex'),
    LOG_LEVEL: 'warn',
    PIPELINE_LOCK_MS: '2000',
    ...extra,
  };
}

function track(child: ChildProcess): { exited: Promise<Exit>; hasExited: () => boolean } {
  children.add(child);
  let done = false;
  const exited = new Promise<Exit>((resolvePromise) => {
    child.on('exit', (code, signal) => {
      done = true;
      children.delete(child);
      resolvePromise({ code, signal });
    });
  });
  return { exited, hasExited: () => done };
}

/** Starts `node <args>` with the test app's environment, its output collected. */
function startNode(config: AppConfig, args: string[], extra: NodeJS.ProcessEnv): WorkerProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: childEnv(config, extra), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const { exited, hasExited } = track(child);
  return { child, pid: child.pid!, exited, hasExited, output: () => output };
}

/** Starts `node dist/worker.js` against the test app's database and queue prefix. */
export function startWorker(config: AppConfig, extra: NodeJS.ProcessEnv = {}): WorkerProcess {
  return startNode(config, [WORKER], extra);
}

/** Starts the console's own process, `node dist/console.js` (give it a CONSOLE_PORT in `extra`). */
export function startConsoleProcess(config: AppConfig, extra: NodeJS.ProcessEnv = {}): WorkerProcess {
  return startNode(config, [CONSOLE], extra);
}

/** Sends `signal` and waits up to `timeoutMs` for the exit; null when it did not exit in time. */
export async function stopWorker(worker: WorkerProcess, signal: NodeJS.Signals, timeoutMs = 10_000): Promise<Exit | null> {
  if (!worker.hasExited()) worker.child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolvePromise) => (timer = setTimeout(() => resolvePromise(null), timeoutMs)));
  try {
    return await Promise.race([worker.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** SIGKILLs every child started here that is still running and waits for them. */
export async function killAllChildren(): Promise<void> {
  const running = [...children];
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolvePromise) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolvePromise();
          child.once('exit', () => resolvePromise());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** Starts the built CLI without waiting for it (a command that runs until stopped, such as `events tail`). */
export function startCli(config: AppConfig, args: string[], extra: NodeJS.ProcessEnv = {}): WorkerProcess {
  return startNode(config, [CLI, ...args], extra);
}

/** Runs the built CLI with the test app's database and queue prefix (plus `extra`). */
export function runCliWith(config: AppConfig, args: string[], extra: NodeJS.ProcessEnv = {}, timeoutMs = 45_000): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: childEnv(config, extra), stdio: ['ignore', 'pipe', 'pipe'] });
    const { exited } = track(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI ${args.join(' ')} did not finish within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    // 'close' fires after the output streams have ended, so nothing written is missed.
    child.on('close', () => {
      clearTimeout(timer);
      void exited.then(({ code }) => resolvePromise({ code, stdout, stderr }));
    });
  });
}

/** Internal numeric id (decimal string) of a public id such as `wor_…` or `act_…`. */
export function internalId(publicId: string): string {
  const digits = publicId.replace(/^[a-z]+_/, '');
  if (!/^[0-9]+$/.test(digits)) throw new Error(`Not a public id: ${publicId}`);
  return BigInt(digits).toString();
}

/** How a workspace's activities stand, straight from PostgreSQL. */
export async function activityProgress(
  db: Client,
  workspaceId: string,
): Promise<{ total: number; processed: number; discarded: number; pending: number }> {
  const res = await db.query(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE status = 'processed')::int AS processed,
            count(*) FILTER (WHERE status = 'discarded')::int AS discarded,
            count(*) FILTER (WHERE stage <> 'done')::int AS pending
       FROM activities WHERE workspace_id = $1`,
    [internalId(workspaceId)],
  );
  return res.rows[0];
}
