/**
 * A budget of rows that list pages may hold in memory at once, shared first come, first served.
 * A page takes as many units as rows it may fetch and gives them back when it has been built, so
 * a burst of large pages (`limit=1000`) is served a few at a time while small pages — which take
 * little — rarely wait. A page larger than the whole budget takes all of it.
 */
export class RowBudget {
  private available: number;
  private readonly waiting: Array<{ units: number; grant: () => void }> = [];

  constructor(readonly capacity: number) {
    this.available = capacity;
  }

  /** Runs `work` once `rows` units are free, and frees them when it settles. */
  async run<T>(rows: number, work: () => Promise<T>): Promise<T> {
    const units = Math.min(Math.max(rows, 1), this.capacity);
    await this.acquire(units);
    try {
      return await work();
    } finally {
      this.release(units);
    }
  }

  /** Units free now (for tests and metrics). */
  get free(): number {
    return this.available;
  }

  private acquire(units: number): Promise<void> {
    // First come, first served: nobody overtakes a waiting page, or large pages would starve.
    if (this.waiting.length === 0 && units <= this.available) {
      this.available -= units;
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiting.push({ units, grant }));
  }

  private release(units: number): void {
    this.available += units;
    while (this.waiting.length > 0 && this.waiting[0].units <= this.available) {
      const next = this.waiting.shift()!;
      this.available -= next.units;
      next.grant();
    }
  }
}
