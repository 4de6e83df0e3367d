import { execFileSync } from 'node:child_process';
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
});
