/**
 * How many deliveries to one endpoint a process runs at once. A delivery over the share waits for
 * a slot of its endpoint (first come, first served) up to `maxWaitMs`, then gives up: a fast
 * receiver's deliveries queue here briefly, while a hanging receiver's give their worker slot
 * back instead of holding it.
 */
export class EndpointSlots {
  private readonly busy = new Map<string, number>();
  private readonly waiting = new Map<string, Array<(acquired: boolean) => void>>();

  constructor(private readonly perEndpoint: number) {}

  acquire(endpointId: string, maxWaitMs: number): Promise<boolean> {
    const busy = this.busy.get(endpointId) ?? 0;
    if (busy < this.perEndpoint) {
      this.busy.set(endpointId, busy + 1);
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const queue = this.waiting.get(endpointId) ?? [];
      this.waiting.set(endpointId, queue);
      const grant = (acquired: boolean) => {
        clearTimeout(timer);
        resolve(acquired);
      };
      const timer = setTimeout(() => {
        const at = queue.indexOf(grant);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0) this.waiting.delete(endpointId);
        resolve(false);
      }, maxWaitMs);
      queue.push(grant);
    });
  }

  /** Hands the slot to the next delivery waiting for the endpoint, or frees it. */
  release(endpointId: string): void {
    const queue = this.waiting.get(endpointId);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.waiting.delete(endpointId);
    if (next) return next(true);
    const left = (this.busy.get(endpointId) ?? 1) - 1;
    if (left > 0) this.busy.set(endpointId, left);
    else this.busy.delete(endpointId);
  }
}
