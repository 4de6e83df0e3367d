import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GC_METER, gcBetween, gcPerRequest, readGcTotals } from './gc';

describe('gcPerRequest', () => {
  it('divides the pause between two readings by the requests, in microseconds', () => {
    expect(gcPerRequest(gcBetween({ young_ms: 100, other_ms: 10 }, { young_ms: 400, other_ms: 60 }), 5_000)).toEqual({
      total_us: 70,
      young_us: 60,
    });
  });

  it('is unknown without both readings or without requests', () => {
    const reading = { young_ms: 1, other_ms: 1 };
    expect(gcPerRequest(gcBetween(null, reading), 10)).toBeNull();
    expect(gcPerRequest(gcBetween(reading, null), 10)).toBeNull();
    expect(gcPerRequest(gcBetween(reading, reading), 0)).toBeNull();
  });
});

describe('the GC meter', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gc-meter-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('records scavenges and full collections of the process it is preloaded into, apart', () => {
    const file = join(dir, 'gc.json');
    // Short-lived garbage for scavenges, then one forced full collection; exits once the meter
    // has written both (it rewrites every 100 ms; its timer alone does not keep the process up),
    // and is stopped after 10 s if it never does.
    const script = `
      let held = [];
      for (let i = 0; i < 2e6; i++) {
        held.push({ i });
        if (held.length === 1000) held = [];
      }
      global.gc();
      const written = () => {
        try {
          const totals = JSON.parse(require('node:fs').readFileSync(process.env.BENCH_GC_FILE, 'utf8'));
          return totals.young_ms > 0 && totals.other_ms > 0;
        } catch {
          return false;
        }
      };
      const poll = () => { if (!written()) setTimeout(poll, 20); };
      poll();
    `;
    execFileSync(process.execPath, ['--expose-gc', '-r', GC_METER, '-e', script], {
      env: { ...process.env, BENCH_GC_FILE: file },
      timeout: 10_000,
    });
    const totals = readGcTotals(file);
    expect(totals?.young_ms).toBeGreaterThan(0);
    expect(totals?.other_ms).toBeGreaterThan(0);
  });

  it('is never found half-written by a reader', async () => {
    const file = join(dir, 'gc.json');
    // Garbage for a second and a half: the meter rewrites its file about fifteen times meanwhile.
    const script = `
      const until = Date.now() + 1500;
      const churn = () => { let held = []; for (let i = 0; i < 2e5; i++) held.push({ i }); if (Date.now() < until) setImmediate(churn); };
      churn();
    `;
    const child = spawn(process.execPath, ['-r', GC_METER, '-e', script], {
      env: { ...process.env, BENCH_GC_FILE: file },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let readings = 0;
    let unreadable = 0;
    let running = true;
    void exited.then(() => (running = false));
    while (running) {
      // Reads as fast as the event loop allows, once the meter has written the first time.
      const totals = readGcTotals(file);
      if (totals) readings += 1;
      else if (readings > 0) unreadable += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(readings).toBeGreaterThan(100);
    expect(unreadable).toBe(0);
  });

  it('writes nothing without BENCH_GC_FILE', () => {
    const env = { ...process.env };
    delete env.BENCH_GC_FILE;
    execFileSync(process.execPath, ['--expose-gc', '-r', GC_METER, '-e', 'global.gc(); setTimeout(() => {}, 250)'], { env, cwd: dir });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reads nothing from a missing or foreign file', () => {
    expect(readGcTotals(undefined)).toBeNull();
    expect(readGcTotals(join(dir, 'absent.json'))).toBeNull();
    const foreign = join(dir, 'foreign.json');
    writeFileSync(foreign, '{"young_ms":"a lot"}');
    expect(readGcTotals(foreign)).toBeNull();
  });
});
