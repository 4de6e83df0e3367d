import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { childEnv, killAllChildren } from '../support/worker-process';

jest.setTimeout(60_000);

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await killAllChildren();
  await t?.close();
});

describe('a process whose output is not a terminal', () => {
  it('writes JSON lines from its very first line, without colour codes', async () => {
    // No CURSOR_SECRET: its warning is written before the application (and its logger) exists.
    const env = childEnv(t.config, { LOG_LEVEL: 'info', CURSOR_SECRET: '', PORT: '0', RUN_WORKERS: 'false' });
    const api = spawn(process.execPath, [resolve(__dirname, '../../dist/main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    api.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    api.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise((done) => api.on('exit', done));
    await waitFor(
      () => output,
      (text) => text.includes('Listening on port'),
      { what: 'the API to start' },
    );
    api.kill('SIGTERM');
    await exited;
    const lines = output.split('\n').filter((line) => line !== '');
    expect(lines[0]).toContain('CURSOR_SECRET is not set');
    expect(output).not.toContain('\u001b[');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(JSON.parse(lines[0])).toMatchObject({ level: expect.any(Number), msg: expect.any(String) });
  });
});
