import { EndpointSlots } from './endpoint-slots';

describe('EndpointSlots', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('grants up to the share at once, hands a freed slot to the first waiter, and lets a waiter give up', async () => {
    const slots = new EndpointSlots(2);
    expect(await slots.acquire('a', 100)).toBe(true);
    expect(await slots.acquire('a', 100)).toBe(true);
    // Another endpoint is not held back by this one.
    expect(await slots.acquire('b', 100)).toBe(true);
    const first = slots.acquire('a', 100);
    const second = slots.acquire('a', 50);
    slots.release('a');
    expect(await first).toBe(true);
    jest.advanceTimersByTime(60);
    expect(await second).toBe(false);
    // Two held again (the handed-over one and the other); a release frees one.
    slots.release('a');
    slots.release('a');
    expect(await slots.acquire('a', 0)).toBe(true);
  });
});
