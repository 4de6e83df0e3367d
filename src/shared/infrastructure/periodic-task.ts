/**
 * Work repeated on a timer in the background (sweeps, retention, dispatch): at most one run at a
 * time (a tick while one runs is skipped), errors reported and never thrown, the timer not keeping
 * the process alive, and `stop` waiting for the run in progress.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly intervalMs: number,
    private readonly run: () => Promise<unknown>,
    private readonly onError: (error: Error) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.run()
        .then(
          () => undefined,
          (error: Error) => this.onError(error),
        )
        .finally(() => (this.running = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
