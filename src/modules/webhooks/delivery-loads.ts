import DataLoader from 'dataloader';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { groupBy, turnBatching } from '../../shared/infrastructure/turn-batching';
import type { EventRow, EventsRepository } from '../events/events.repository';
import type { DeliveryRow, EndpointRow, WebhookEndpointsRepository } from './webhook-endpoints.repository';

interface Key {
  workspaceId: string;
  id: string;
}

/**
 * The reads and writes of the deliveries a worker runs side by side, batched per turn of the
 * event loop and per workspace: one statement loads their endpoints, one their events, one
 * records their attempts.
 */
export class DeliveryLoads {
  private readonly endpoints: DataLoader<Key, EndpointRow | null>;
  private readonly events: DataLoader<Key, EventRow | null>;
  /** Events read ahead for a batch, until its delivery takes them. */
  private readonly ahead = new Map<string, Promise<EventRow | null>>();
  private readonly attempts: DataLoader<{ workspaceId: string; row: DeliveryRow }, void>;

  constructor(endpointRepository: WebhookEndpointsRepository, eventRepository: EventsRepository) {
    this.endpoints = new DataLoader((keys) => byWorkspace(keys, (ctx, ids) => endpointRepository.findMany(ctx, ids)), turnBatching(256));
    this.events = new DataLoader((keys) => byWorkspace(keys, (ctx, ids) => eventRepository.findMany(ctx, ids)), turnBatching(256));
    this.attempts = new DataLoader(async (items) => {
      for (const [workspaceId, group] of groupBy(items, (item) => item.workspaceId)) {
        await endpointRepository.insertDeliveries(
          WorkspaceContext.forPipeline(workspaceId),
          group.map((item) => item.row),
        );
      }
      return items.map(() => undefined);
    }, turnBatching(256));
  }

  endpoint(workspaceId: string, id: string): Promise<EndpointRow | null> {
    return this.endpoints.load({ workspaceId, id });
  }

  event(workspaceId: string, id: string): Promise<EventRow | null> {
    const key = `${workspaceId}:${id}`;
    const read = this.ahead.get(key);
    if (read) {
      this.ahead.delete(key);
      return read;
    }
    return this.events.load({ workspaceId, id });
  }

  /** Reads a batch's events in one statement now; `event` then takes each from here. */
  readAhead(workspaceId: string, ids: readonly string[]): void {
    for (const id of ids) this.ahead.set(`${workspaceId}:${id}`, this.events.load({ workspaceId, id }));
  }

  /** Drops what a batch read ahead and did not take (it stopped early). */
  forget(workspaceId: string, ids: readonly string[]): void {
    for (const id of ids) this.ahead.delete(`${workspaceId}:${id}`);
  }

  record(workspaceId: string, row: DeliveryRow): Promise<void> {
    return this.attempts.load({ workspaceId, row });
  }
}

async function byWorkspace<T extends { id: string }>(
  keys: readonly Key[],
  find: (ctx: WorkspaceContext, ids: string[]) => Promise<T[]>,
): Promise<Array<T | null>> {
  const found = new Map<string, T>();
  for (const [workspaceId, group] of groupBy(keys, (key) => key.workspaceId)) {
    const rows = await find(WorkspaceContext.forPipeline(workspaceId), [...new Set(group.map((key) => key.id))]);
    for (const row of rows) found.set(`${workspaceId}:${row.id}`, row);
  }
  return keys.map((key) => found.get(`${key.workspaceId}:${key.id}`) ?? null);
}
