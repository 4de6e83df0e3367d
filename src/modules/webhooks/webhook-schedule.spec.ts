import { DELIVERY_ATTEMPTS, retryDelay } from './webhook-schedule';

describe('retryDelay', () => {
  it('grows from 5 s to 12 h with the default base, about three days over every attempt', () => {
    const middle = () => 0.5;
    expect(retryDelay(1, 5_000, middle)).toBe(5_000);
    expect(retryDelay(2, 5_000, middle)).toBe(30_000);
    expect(retryDelay(DELIVERY_ATTEMPTS - 1, 5_000, middle)).toBe(12 * 3_600_000);
    const total = Array.from({ length: DELIVERY_ATTEMPTS - 1 }, (_, k) => retryDelay(k + 1, 5_000, middle)).reduce((a, b) => a + b, 0);
    expect(total / 86_400_000).toBeGreaterThan(2.9);
    expect(total / 86_400_000).toBeLessThan(3.3);
  });

  it('jitters by at most a fifth either way', () => {
    expect(retryDelay(3, 1_000, () => 0)).toBe(Math.round(24_000 * 0.8));
    expect(retryDelay(3, 1_000, () => 1)).toBe(Math.round(24_000 * 1.2));
  });
});
