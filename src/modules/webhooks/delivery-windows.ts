/** How sending one event of a batch went, as far as the batch is concerned. */
export interface WindowOutcome {
  /** Null: no retry (sent, its last attempt, or nothing to send any more). */
  retryInMs: number | null;
  /** The endpoint is gone or was disabled: nothing more is sent to it. */
  endpointGone: boolean;
}

export interface WindowedSend {
  /** Events to send again, each after its delay. */
  failed: Array<{ id: string; retryInMs: number }>;
  /** Events not sent because a window before them failed (empty when the endpoint is gone). */
  unsent: string[];
}

/**
 * Sends a batch's ids in order, `size` at a time (each window waits for the one before), and
 * stops after the first window in which an event failed or the endpoint went away: a failing
 * receiver gets at most one window of a batch before the retry delay.
 */
export async function sendInWindows(
  ids: readonly string[],
  size: number,
  send: (id: string) => Promise<WindowOutcome>,
): Promise<WindowedSend> {
  for (let start = 0; start < ids.length; start += size) {
    const window = ids.slice(start, start + size);
    const outcomes = await Promise.all(window.map(send));
    if (outcomes.some((outcome) => outcome.endpointGone)) return { failed: [], unsent: [] };
    const failed = window.flatMap((id, k) => {
      const retryInMs = outcomes[k].retryInMs;
      return retryInMs === null ? [] : [{ id, retryInMs }];
    });
    if (failed.length > 0) return { failed, unsent: ids.slice(start + size) };
  }
  return { failed: [], unsent: [] };
}
