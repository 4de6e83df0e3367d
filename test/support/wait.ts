/**
 * Waiting in tests: poll for the observable condition, never sleep a fixed time. A test that proves
 * something does not happen waits for a positive event that shows the moment has passed (a
 * counter, a log line, a row, another activity going through), then asserts.
 */

/** Polls `probe` until `done` accepts its value; throws with the last value after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 20_000, intervalMs = 50, what = 'condition' }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
