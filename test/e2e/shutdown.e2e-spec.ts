import { ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { oneJsonLine, runCli } from '../support/cli';
import { freePort } from '../support/ports';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const ROOT = resolve(__dirname, '..', '..');

describe('API shutdown on SIGTERM', () => {
  let t: TestApp;
  let api: ChildProcess | undefined;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    if (api && api.exitCode === null && api.signalCode === null) api.kill('SIGKILL');
    await t.close();
  });

  it('finishes every request in flight, then exits 0 and takes no new ones', async () => {
    const ws = await t.newWorkspace();
    oneJsonLine(await runCli(t.config.databaseUrl, 'seed', 'bulk', '--workspace', ws.workspace_id, '--buyers', '200', '--signals', '3000'));

    const port = await freePort();
    api = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: t.config.databaseUrl,
        QUEUE_PREFIX: t.config.queuePrefix,
        RUN_WORKERS: 'false',
        RATE_LIMIT_LIMIT: '100000',
        CURSOR_SECRET: 'shutdown-test-secret-0123456789',
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      api!.once('exit', (code, signal) => done({ code, signal })),
    );
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      () =>
        fetch(`${base}/health/live`).then(
          (r) => r.ok,
          () => false,
        ),
      (up) => up,
      { timeoutMs: 20_000, intervalMs: 100, what: 'the API to answer /health/live' },
    );

    // Many large pages at once, so some are certainly in flight when the signal arrives.
    const requests = Array.from({ length: 40 }, () => fetch(`${base}/v1/signals?limit=1000`, { headers: { Authorization: ws.auth } }));
    // Once one answer has started, the server has accepted every connection: all 40 are in flight.
    await Promise.any(requests);
    api.kill('SIGTERM');

    const results = await Promise.all(
      requests.map((request) =>
        request.then(
          async (res) => ({ status: res.status, count: ((await res.json()) as { data: unknown[] }).data.length, error: '' }),
          (error: Error & { cause?: { code?: string } }) => ({ status: 0, count: 0, error: error.cause?.code ?? error.message }),
        ),
      ),
    );
    expect(results.filter((r) => !(r.status === 200 && r.count === 1000))).toEqual([]);
    await expect(exited).resolves.toEqual({ code: 0, signal: null });
    await expect(fetch(`${base}/health/live`)).rejects.toThrow();
  }, 60_000);
});
