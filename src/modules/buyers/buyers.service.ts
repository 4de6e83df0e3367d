import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../shared/application/app-error';
import { bindingParams, keysetPage, Page } from '../../shared/application/pagination';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { formatId, ID_PREFIXES, parseId } from '../../shared/domain/ids';
import { CursorCodec } from '../../shared/infrastructure/cursor-codec';
import { SortOrder } from '../../shared/infrastructure/keyset-sql';
import { presentBuyerEvaluation } from './buyer-evaluation-view';
import { presentBuyer } from './buyer-view';
import { BuyersRepository } from './buyers.repository';

export interface BuyerListQuery {
  limit: number;
  cursor?: string;
  created_after?: Date;
  created_before?: Date;
  sort_by: 'created_at';
  sort_order: SortOrder;
}

export type BuyerView = ReturnType<typeof presentBuyer>;

/** A Buyer's id and what the enrichment found, as stored (the evaluator conforms it to the templates). */
export interface BuyerProfile {
  id: string;
  contact_info: Record<string, unknown>;
  company_info: Record<string, unknown>;
}

/** Buyers are read-only through the API; the pipeline writes them. */
@Injectable()
export class BuyersService {
  constructor(
    private readonly buyers: BuyersRepository,
    @Inject(CursorCodec) private readonly cursors: CursorCodec,
  ) {}

  async list(ctx: WorkspaceContext, query: BuyerListQuery): Promise<Page<BuyerView>> {
    const filter = { createdAfter: query.created_after, createdBefore: query.created_before, order: query.sort_order };
    return keysetPage({
      cursors: this.cursors,
      binding: {
        workspaceId: requireWorkspace(ctx),
        endpoint: 'buyers',
        params: bindingParams(query, ['created_after', 'created_before', 'sort_by', 'sort_order']),
      },
      cursor: query.cursor,
      limit: query.limit,
      fetch: (after, limit) => this.buyers.page(ctx, filter, after, limit),
      positionOf: (row) => ({ at: row.created_at, id: row.id }),
      present: presentBuyer,
    });
  }

  /** The workspace's `limit` most recently created Buyers, newest first, with what enrichment found as stored. */
  async recentProfiles(ctx: WorkspaceContext, limit: number): Promise<BuyerProfile[]> {
    // A page reads one row more than asked, to tell whether another page follows.
    const rows = (await this.buyers.page(ctx, { order: 'desc' }, null, limit)).slice(0, limit);
    return rows.map((row) => ({ id: formatId(ID_PREFIXES.buyer, row.id), contact_info: row.contact_info, company_info: row.company_info }));
  }

  /** Malformed, missing and other-workspace ids are all simply not found. */
  async get(ctx: WorkspaceContext, buyerId: string): Promise<BuyerView> {
    return presentBuyer(await this.found(buyerId, (id) => this.buyers.findOne(ctx, id)));
  }

  /** The Buyer's latest evaluation, criterion by criterion; not found as `get` is. */
  async evaluation(ctx: WorkspaceContext, buyerId: string): Promise<Record<string, unknown>> {
    return presentBuyerEvaluation(await this.found(buyerId, (id) => this.buyers.findEvaluation(ctx, id)));
  }

  private async found<T>(buyerId: string, find: (id: string) => Promise<T | null>): Promise<T> {
    const parsed = parseId(ID_PREFIXES.buyer, buyerId);
    const row = parsed.kind === 'ok' ? await find(parsed.value) : null;
    if (!row) throw AppError.notFound('Buyer');
    return row;
  }
}
