import { execFileSync, spawnSync } from 'node:child_process';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from './heap';

describe('heapGrowthFlag', () => {
  it('limits the growth factor when the operator chose nothing', () => {
    expect(heapGrowthFlag([], undefined)).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps'], '--trace-warnings')).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it.each([
    [['--max-old-space-size=512'], undefined],
    [['--max_old_space_size=512'], undefined],
    [['--heap-growing-percent=50'], undefined],
    [[], '--max-heap-size=1024'],
    [[], '--trace-warnings --max-old-space-size=2048'],
  ])('leaves the heap alone when the operator sized it (%j, NODE_OPTIONS %j)', (execArgv, nodeOptions) => {
    expect(heapGrowthFlag(execArgv, nodeOptions)).toBeNull();
  });

  it('is a flag this Node accepts', () => {
    // node exits non-zero on a flag it does not know.
    const flag = heapGrowthFlag([], undefined)!;
    expect(execFileSync(process.execPath, [flag, '-e', 'process.stdout.write("ok")']).toString()).toBe('ok');
  });

  it('still bounds the heap when limitHeapGrowth sets the flag at run time', () => {
    // Neither the flag nor changing a flag once V8 runs is documented by Node, so an upgrade could
    // make the call a no-op or an error on stderr. The same churn (objects that live through young
    // collections, then die) peaks about twice as high at 5× growth as at 2.1× (240 against 500 MB
    // on Node 20.20 and 24.21). The loose run names its growth on the command line, which
    // limitHeapGrowth leaves as it is.
    const peakMb = (nodeFlags: string[]): number => {
      const run = spawnSync(
        process.execPath,
        [...nodeFlags, '--max-semi-space-size=16', '-r', 'ts-node/register/transpile-only', '-e', HEAP_CHURN],
        {
          cwd: __dirname,
          encoding: 'utf8',
        },
      );
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
      return Number(run.stdout);
    };
    const limited = peakMb([]);
    const loose = peakMb(['--heap-growing-percent=400']);
    expect(limited).toBeLessThan(loose * 0.7);
  });
});

/** Runs limitHeapGrowth, churns through the old generation and prints the used heap's peak in MB. */
const HEAP_CHURN = `
const v8 = require('node:v8');
require('./heap').limitHeapGrowth();
globalThis.live = Array.from({ length: 100 }, () => Array.from({ length: 10000 }, (_, i) => ({ i })));
const ring = new Array(300000);
let peak = 0;
for (let n = 0; n < 6000000; n++) {
  ring[n % ring.length] = { a: [n, n + 1, n + 2, n + 3], s: 'x' + n };
  if (n % 10000 === 0) peak = Math.max(peak, v8.getHeapStatistics().used_heap_size);
}
process.stdout.write(String(Math.round(peak / 1e6)));
`;
