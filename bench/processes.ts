/** Child processes of the benchmark: start, wait until they answer, sample memory, stop. */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GC_METER } from './gc';

export interface Service {
  name: string;
  child: ChildProcess;
  baseUrl: string;
  /** Where bench/gc-meter.js keeps the process's GC pause time, when it is metered. */
  gcFile?: string;
}

const running = new Set<ChildProcess>();

/** However the benchmark ends (an error, Ctrl-C, SIGTERM), no child is left behind. */
export function killChildrenOnExit(): void {
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => process.exit(signal === 'SIGINT' ? 130 : 143));
  }
}

/**
 * Starts a Node process; its stdout and stderr go to ours (stderr), so the report on stdout stays
 * clean; `discardStdout` sends its stdout (request logs) to /dev/null instead. `meterGc` preloads
 * bench/gc-meter.js (read with readGcTotals in gc.ts); `cwd` is its working directory (ours by
 * default). A process that exits before it is stopped fails the benchmark.
 */
export function startNode(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  { discardStdout = false, meterGc = false, cwd }: { discardStdout?: boolean; meterGc?: boolean; cwd?: string } = {},
): Service {
  const gcFile = meterGc ? join(tmpdir(), `bench-gc-${randomBytes(6).toString('hex')}.json`) : undefined;
  const child = spawn(process.execPath, gcFile ? ['-r', GC_METER, ...args] : args, {
    env: gcFile ? { ...env, BENCH_GC_FILE: gcFile } : env,
    cwd,
    stdio: ['ignore', discardStdout ? 'ignore' : 'pipe', 'pipe'],
  });
  child.stdout?.pipe(process.stderr, { end: false });
  child.stderr?.pipe(process.stderr, { end: false });
  running.add(child);
  child.once('exit', (code, signal) => {
    const expected = !running.has(child);
    running.delete(child);
    if (!expected) {
      console.error(`${name} exited unexpectedly (code ${code}, signal ${signal})`);
      process.exitCode = 1;
    }
  });
  if (gcFile) {
    child.once('exit', () => {
      rmSync(gcFile, { force: true });
      rmSync(`${gcFile}.tmp`, { force: true });
    });
  }
  return { name, child, baseUrl: `http://127.0.0.1:${port}`, gcFile };
}

/** Polls until `path` answers 200, or fails after `timeoutMs`. */
export async function waitUntilServing(service: Service, path: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`${service.name} exited with code ${service.child.exitCode} while starting`);
    try {
      const response = await fetch(`${service.baseUrl}${path}`);
      if (response.status === 200) return;
      last = `status ${response.status}: ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${service.name} did not answer 200 on ${path} within ${timeoutMs / 1000} s (${last})`);
}

/** SIGTERM, then SIGKILL when it has not exited in time. Resolves with the exit code. */
export function stop(service: Service, timeoutMs = 30_000): Promise<number | null> {
  const { child } = service;
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

/** Clock ticks per second of /proc's CPU times. */
let ticksPerSecond: number | undefined;

/**
 * CPU time (user + system) a process has used so far, in seconds, from /proc (Linux); null
 * elsewhere. Unlike requests per second it hardly depends on what else the machine is doing.
 */
export function cpuSeconds(pid: number): number | null {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    // Fields after the command name (which may contain spaces), so utime and stime are 12 and 13.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return null;
  }
}

/** Resident set size of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every 250 ms while active; keeps the maximum overall and per phase. */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  private phaseMax = 0;
  overallMax = 0;

  constructor(private readonly pid: number) {}

  start(): void {
    this.phaseMax = 0;
    this.sample();
    this.timer = setInterval(() => this.sample(), 250);
  }

  /** Ends the phase; returns its maximum in MB. */
  stop(): number {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
    return this.phaseMax;
  }

  private sample(): void {
    const mb = rssMb(this.pid);
    if (mb === null) return;
    this.phaseMax = Math.max(this.phaseMax, mb);
    this.overallMax = Math.max(this.overallMax, mb);
  }
}
