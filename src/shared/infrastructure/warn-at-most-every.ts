/**
 * An error listener that logs one warning per interval at most, for failures that repeat while a
 * dependency is away: a Redis client, queue or worker retries every few hundred milliseconds and
 * each attempt fails again (without a listener BullMQ writes every such error to stderr, outside
 * the structured log); a periodic task fails on every tick while PostgreSQL is down.
 */
export function warnAtMostEvery(logger: { warn(message: string): void }, label: string, intervalMs = 10_000): (error: Error) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (error: Error) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    logger.warn(`${label}: ${error.message}`);
  };
}
