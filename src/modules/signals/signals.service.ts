import { Inject, Injectable } from '@nestjs/common';
import { bindingParams, keysetPage, Page } from '../../shared/application/pagination';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { CursorCodec } from '../../shared/infrastructure/cursor-codec';
import { SortOrder } from '../../shared/infrastructure/keyset-sql';
import type { SignalTrigger, SignalType } from './signal-types';
import { presentSignal } from './signal-view';
import { SignalsRepository } from './signals.repository';

export interface SignalListQuery {
  limit: number;
  cursor?: string;
  /** Internal numeric id of the Buyer (parsed from `buy_…`). */
  buyer_id?: string;
  type?: SignalType;
  trigger?: SignalTrigger;
  captured_after?: Date;
  captured_before?: Date;
  sort_by: 'captured_at';
  sort_order: SortOrder;
}

export type SignalView = ReturnType<typeof presentSignal>;

/** Signals are read-only through the API; the pipeline writes them. */
@Injectable()
export class SignalsService {
  constructor(
    private readonly signals: SignalsRepository,
    @Inject(CursorCodec) private readonly cursors: CursorCodec,
  ) {}

  async list(ctx: WorkspaceContext, query: SignalListQuery): Promise<Page<SignalView>> {
    const filter = {
      buyerId: query.buyer_id,
      type: query.type,
      trigger: query.trigger,
      capturedAfter: query.captured_after,
      capturedBefore: query.captured_before,
      order: query.sort_order,
    };
    return keysetPage({
      cursors: this.cursors,
      binding: {
        workspaceId: requireWorkspace(ctx),
        endpoint: 'signals',
        params: bindingParams(query, ['buyer_id', 'type', 'trigger', 'captured_after', 'captured_before', 'sort_by', 'sort_order']),
      },
      cursor: query.cursor,
      limit: query.limit,
      fetch: (after, limit) => this.signals.page(ctx, filter, after, limit),
      positionOf: (row) => ({ at: row.captured_at, id: row.id }),
      present: presentSignal,
    });
  }
}
