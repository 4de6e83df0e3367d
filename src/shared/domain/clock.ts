/** The one source of "now" for records, so tests and the pipeline can agree on time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** `YYYY-MM-DDTHH:mm:ssZ`, the only timestamp form of the public API. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19) + 'Z';
}
