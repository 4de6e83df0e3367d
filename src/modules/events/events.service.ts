import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AppError } from '../../shared/application/app-error';
import type { KbService } from '../../shared/application/kb.service';
import { LIST_ROWS_IN_FLIGHT } from '../../shared/application/pagination';
import type { KbRecordEntity } from '../../shared/infrastructure/kb-record.entity';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { formatTimestamp } from '../../shared/domain/clock';
import { kbObjectType } from '../../shared/domain/events';
import { formatId, ID_PREFIXES, parseId } from '../../shared/domain/ids';
import { CursorBinding, CursorCodec } from '../../shared/infrastructure/cursor-codec';
import { presentBuyer } from '../buyers/buyer-view';
import type { BuyerRow } from '../buyers/buyers.repository';
import { KB_RESOURCES } from '../kb/kb-resources';
import { presentSignal } from '../signals/signal-view';
import type { SignalRow } from '../signals/signals.repository';
import type { TypeSelection } from './event-types';
import { EventRow, EventsRepository, FeedPosition } from './events.repository';

export interface EventListQuery {
  limit: number;
  cursor?: string;
  type?: TypeSelection;
  created_after?: Date;
}

export interface EventPage {
  data: Array<Record<string, unknown>>;
  pagination: { next_cursor: string | null; resume_cursor: string };
}

type Presenter = (row: Record<string, unknown>) => Record<string, unknown>;

/** Timestamp columns of stored rows, which come back from JSON as text. */
const TIMESTAMPS = ['created_at', 'updated_at', 'deleted_at', 'captured_at'];

function revive(row: Record<string, unknown>): Record<string, unknown> {
  const out = { ...row };
  for (const key of TIMESTAMPS) if (typeof out[key] === 'string') out[key] = new Date(out[key]);
  return out;
}

/** The start of every feed: before any event. */
const ORIGIN: FeedPosition = { seq: '0' };

/**
 * The top-level fields of `before` that differ from `after`; for nested objects only the keys
 * that differ. Empty when nothing a client sees changed.
 */
function changedFrom(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, old] of Object.entries(before)) {
    const now = after[key];
    if (JSON.stringify(old) === JSON.stringify(now)) continue;
    if (old && now && typeof old === 'object' && typeof now === 'object' && !Array.isArray(old)) {
      out[key] = changedFrom(old as Record<string, unknown>, now as Record<string, unknown>);
    } else {
      out[key] = old;
    }
  }
  return out;
}

/**
 * The events feed: each event's object is presented exactly as the API presents that object, from
 * the row kept when the event was written.
 */
@Injectable()
export class EventsService {
  private presenters?: Map<string, Presenter>;

  constructor(
    private readonly events: EventsRepository,
    private readonly cursors: CursorCodec,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
  ) {}

  async list(ctx: WorkspaceContext, query: EventListQuery): Promise<EventPage> {
    const binding = this.binding(ctx, query);
    const after = query.cursor === undefined ? ORIGIN : this.decode(binding, query.cursor);
    return LIST_ROWS_IN_FLIGHT.run(query.limit + 1, async () => {
      const rows = await this.events.page(ctx, { types: query.type?.types, createdAfter: query.created_after }, after, query.limit);
      const page = rows.slice(0, query.limit);
      const last = page.length > 0 ? { seq: page[page.length - 1].seq } : after;
      const cursor = this.cursors.encode(binding, [last.seq]);
      return {
        data: page.map((row) => this.present(row)),
        pagination: { next_cursor: rows.length > query.limit ? cursor : null, resume_cursor: cursor },
      };
    });
  }

  /** A cursor for `query` at the end of the feed now: polling with it returns only later events. */
  async endCursor(ctx: WorkspaceContext, query: Omit<EventListQuery, 'limit' | 'cursor'>): Promise<string> {
    const end = (await this.events.end(ctx)) ?? ORIGIN;
    return this.cursors.encode(this.binding(ctx, query), [end.seq]);
  }

  private binding(ctx: WorkspaceContext, query: Omit<EventListQuery, 'limit' | 'cursor'>): CursorBinding {
    return {
      workspaceId: requireWorkspace(ctx),
      endpoint: 'events',
      params: {
        ...(query.type ? { type: query.type.types.join(',') } : {}),
        ...(query.created_after ? { created_after: query.created_after.toISOString() } : {}),
      },
    };
  }

  async get(ctx: WorkspaceContext, eventId: string): Promise<Record<string, unknown>> {
    const parsed = parseId(ID_PREFIXES.event, eventId);
    const row = parsed.kind === 'ok' ? await this.events.findOne(ctx, parsed.value) : null;
    if (!row) throw AppError.notFound('Event');
    return this.present(row);
  }

  /** `{id, type, created_at, data: {object, previous_attributes?}}`. */
  present(row: EventRow): Record<string, unknown> {
    const presentObject = this.presenterOf(row.object_type);
    const object = presentObject(revive(row.data));
    const data: Record<string, unknown> = { object };
    if (row.previous) data.previous_attributes = changedFrom(presentObject(revive({ ...row.data, ...row.previous })), object);
    return { id: formatId(ID_PREFIXES.event, row.id), object: 'event', type: row.type, created_at: formatTimestamp(row.created_at), data };
  }

  private decode(binding: CursorBinding, cursor: string): FeedPosition {
    const position = this.cursors.decode(binding, cursor);
    const [seq] = position;
    if (position.length !== 1 || typeof seq !== 'string' || !/^[0-9]{1,19}$/.test(seq)) throw AppError.invalidCursor();
    return { seq };
  }

  private presenterOf(objectType: string): Presenter {
    if (!this.presenters) {
      const presenters = new Map<string, Presenter>([
        ['signal', (row) => presentSignal(row as unknown as SignalRow)],
        ['buyer', (row) => presentBuyer(row as unknown as BuyerRow)],
      ]);
      for (const resource of KB_RESOURCES) {
        const service = this.moduleRef.get<KbService<KbRecordEntity>>(resource.service, { strict: false });
        presenters.set(kbObjectType(resource.path), (row) => service.present(row as never));
      }
      this.presenters = presenters;
    }
    const presenter = this.presenters.get(objectType);
    if (!presenter) throw new Error(`No presenter for events of ${objectType}`);
    return presenter;
  }
}
