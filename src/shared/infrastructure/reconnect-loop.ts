/**
 * Delays that double from `initialMs` up to `maxMs`, each shortened at random by up to `jitter`
 * (a fraction) of itself, so that processes which lost the same server do not come back in step.
 */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly options: { initialMs: number; maxMs: number; jitter: number },
    private readonly random: () => number = Math.random,
  ) {}

  /** The delay before the next attempt; each call doubles the one after, up to the cap. */
  next(): number {
    const { initialMs, maxMs, jitter } = this.options;
    const full = Math.min(maxMs, initialMs * 2 ** Math.min(this.failures, 30));
    this.failures += 1;
    return Math.round(full * (1 - jitter * this.random()));
  }

  /** Starts again from `initialMs` (after a success). */
  reset(): void {
    this.failures = 0;
  }
}

export interface ReconnectEvents {
  /** An attempt starts (the first one included); `attempt` counts from 1 within an outage. */
  attempt?(attempt: number): void;
  /** The connection failed or was lost while up: an outage starts. Called once per outage. */
  down(error: Error): void;
  /** A connection is up again after an outage that lasted `downMs`. Called once per outage. */
  back(downMs: number): void;
}

/**
 * Keeps one connection up: one attempt at a time, and after a failure or a loss exactly one
 * retry scheduled, with backoff. `start` only starts the first attempt; while an attempt runs or
 * a retry waits, calling it again does nothing, so callers on a hot path (every request) may call
 * it freely without starting attempts of their own.
 *
 * `connect(lost)` opens the connection and resolves once it is usable, or rejects; it calls
 * `lost(error)` if the connection drops later. Only the first report of an attempt counts (a
 * client often reports one failure as a rejection, an `error` and an `end`).
 */
export class ReconnectLoop {
  private state: 'idle' | 'connecting' | 'up' | 'waiting' | 'stopped' = 'idle';
  /** Identifies the current attempt; reports from an older one are ignored. */
  private current = 0;
  private timer: NodeJS.Timeout | undefined;
  /** When the current outage started (undefined while up, or before the first attempt). */
  private downSince: number | undefined;
  private attempts = 0;

  constructor(
    private readonly connect: (lost: (error: Error) => void) => Promise<void>,
    private readonly events: ReconnectEvents,
    private readonly backoff = new Backoff({ initialMs: 500, maxMs: 10_000, jitter: 0.2 }),
  ) {}

  /** Starts the first attempt; does nothing once started, or after `stop`. */
  start(): void {
    if (this.state === 'idle') this.attempt();
  }

  /** True while a connection is up. */
  get up(): boolean {
    return this.state === 'up';
  }

  /** No further attempts; a running attempt's outcome is ignored. */
  stop(): void {
    this.state = 'stopped';
    this.current += 1;
    clearTimeout(this.timer);
  }

  private attempt(): void {
    const id = ++this.current;
    this.state = 'connecting';
    this.attempts += 1;
    this.events.attempt?.(this.attempts);
    let reported = false;
    const failed = (error: Error) => {
      if (reported || id !== this.current) return;
      reported = true;
      this.failed(error);
    };
    let connecting: Promise<void>;
    try {
      connecting = this.connect(failed);
    } catch (error) {
      return failed(asError(error));
    }
    connecting.then(
      () => {
        if (reported || id !== this.current) return;
        this.state = 'up';
        this.attempts = 0;
        this.backoff.reset();
        if (this.downSince !== undefined) this.events.back(Date.now() - this.downSince);
        this.downSince = undefined;
      },
      (error: unknown) => failed(asError(error)),
    );
  }

  private failed(error: Error): void {
    if (this.state === 'stopped') return;
    if (this.downSince === undefined) {
      this.downSince = Date.now();
      this.events.down(error);
    }
    this.state = 'waiting';
    this.timer = setTimeout(() => {
      if (this.state === 'waiting') this.attempt();
    }, this.backoff.next());
    this.timer.unref();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
