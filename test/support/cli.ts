import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (`npm test` builds first) against the given database. */
export function runCli(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** Asserts exit 0 and exactly one line of JSON on stdout, and returns the object. */
export function oneJsonLine(result: CliResult): Record<string, unknown> {
  if (result.code !== 0) throw new Error(`CLI exited ${result.code}: ${result.stderr}`);
  expect(result.stdout.endsWith('\n')).toBe(true);
  const lines = result.stdout.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  const parsed = JSON.parse(lines[0]);
  expect(parsed).toEqual(expect.any(Object));
  expect(Array.isArray(parsed)).toBe(false);
  return parsed;
}

/** Asserts a failed command: non-zero exit, nothing on stdout, a message on stderr. */
export function expectFailure(result: CliResult): void {
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().length).toBeGreaterThan(0);
}
