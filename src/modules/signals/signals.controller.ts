import { Controller, Get, Query } from '@nestjs/common';
import { AppError } from '../../shared/application/app-error';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { ID_PREFIXES } from '../../shared/domain/ids';
import {
  cursorParser,
  DEFAULT_PAGE_SIZE,
  enumParser,
  limitParser,
  ListQueryPipe,
  prefixedIdParser,
  timestampParser,
} from '../../shared/interface/http/list-query.pipe';
import { CurrentWorkspace } from '../../shared/interface/http/workspace.interceptor';
import { ALL_TRIGGERS, SIGNAL_TYPES, triggerBelongsTo } from './signal-types';
import { SignalListQuery, SignalsService } from './signals.service';

const signalListQuery = new ListQueryPipe<SignalListQuery>(
  {
    limit: limitParser,
    cursor: cursorParser,
    buyer_id: prefixedIdParser(ID_PREFIXES.buyer),
    type: enumParser(SIGNAL_TYPES),
    trigger: enumParser(ALL_TRIGGERS),
    captured_after: timestampParser,
    captured_before: timestampParser,
    sort_by: enumParser(['captured_at']),
    sort_order: enumParser(['asc', 'desc']),
  },
  { limit: DEFAULT_PAGE_SIZE, sort_by: 'captured_at', sort_order: 'desc' },
  (query) => {
    if (query.trigger === undefined) return;
    if (query.type === undefined) throw AppError.invalidParameter('trigger', 'trigger requires type.');
    if (!triggerBelongsTo(query.type, query.trigger)) {
      throw AppError.invalidParameter('trigger', `trigger ${query.trigger} is not a trigger of type ${query.type}.`);
    }
  },
);

@Controller('v1/signals')
export class SignalsController {
  constructor(private readonly signals: SignalsService) {}

  @Get()
  list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(signalListQuery) query: SignalListQuery) {
    return this.signals.list(ctx, query);
  }
}
