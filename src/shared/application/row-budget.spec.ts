import { RowBudget } from './row-budget';

/** A piece of work the test finishes when it wants. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('RowBudget', () => {
  it('runs pages at once while their rows fit, and frees the rows when they settle', async () => {
    const budget = new RowBudget(300);
    const a = pending();
    const b = pending();
    const runs = [budget.run(101, a.work), budget.run(101, b.work)];
    await settled();
    expect(budget.free).toBe(98);
    a.finish();
    b.finish();
    await Promise.all(runs);
    expect(budget.free).toBe(300);
  });

  it('makes a page wait until enough rows are free, first come first served', async () => {
    const budget = new RowBudget(2_000);
    const order: string[] = [];
    const first = pending();
    const second = pending();
    const running = [
      budget.run(1_001, first.work).then(() => order.push('first')),
      budget.run(1_001, second.work).then(() => order.push('second')),
      // Small enough to fit, but it queues behind the large page already waiting.
      budget.run(101, () => Promise.resolve(order.push('small started'))),
    ];
    await settled();
    expect(order).toEqual([]);
    first.finish();
    await settled();
    second.finish();
    await Promise.all(running);
    expect(order).toEqual(['small started', 'first', 'second']);
    expect(budget.free).toBe(2_000);
  });

  it('gives a page larger than the budget the whole budget, and frees it after a failure', async () => {
    const budget = new RowBudget(500);
    await expect(budget.run(1_001, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(budget.free).toBe(500);
    await expect(budget.run(1_001, () => Promise.resolve('ok'))).resolves.toBe('ok');
  });
});
