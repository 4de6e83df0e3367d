import { Controller, Get, Param, Query } from '@nestjs/common';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import {
  cursorParser,
  DEFAULT_PAGE_SIZE,
  enumParser,
  limitParser,
  ListQueryPipe,
  timestampParser,
} from '../../shared/interface/http/list-query.pipe';
import { CurrentWorkspace } from '../../shared/interface/http/workspace.interceptor';
import { BuyerListQuery, BuyersService } from './buyers.service';

const buyerListQuery = new ListQueryPipe<BuyerListQuery>(
  {
    limit: limitParser,
    cursor: cursorParser,
    created_after: timestampParser,
    created_before: timestampParser,
    sort_by: enumParser(['created_at']),
    sort_order: enumParser(['asc', 'desc']),
  },
  { limit: DEFAULT_PAGE_SIZE, sort_by: 'created_at', sort_order: 'desc' },
);

@Controller('v1/buyers')
export class BuyersController {
  constructor(private readonly buyers: BuyersService) {}

  @Get()
  list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(buyerListQuery) query: BuyerListQuery) {
    return this.buyers.list(ctx, query);
  }

  @Get(':buyer_id')
  get(@CurrentWorkspace() ctx: WorkspaceContext, @Param('buyer_id') buyerId: string) {
    return this.buyers.get(ctx, buyerId);
  }
}
