/**
 * The retry schedule of a webhook delivery, in multiples of the first delay (5 s by default):
 * 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, then 12 h five times — about three days
 * from the first attempt to the last of the fifteen.
 */
const STEPS = [1, 6, 24, 120, 360, 720, 1_440, 2_880, 5_760, 8_640, 8_640, 8_640, 8_640, 8_640];

/** Attempts in all, the first included. */
export const DELIVERY_ATTEMPTS = STEPS.length + 1;

/** An endpoint whose deliveries have all failed for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

/**
 * The delay before retry number `retry` (1 for the first), with ±20 % jitter so that the retries of
 * many events to one recovering receiver do not arrive together.
 */
export function retryDelay(retry: number, baseMs: number, random: () => number = Math.random): number {
  const step = STEPS[Math.min(Math.max(retry, 1), STEPS.length) - 1];
  return Math.round(step * baseMs * (0.8 + 0.4 * random()));
}
