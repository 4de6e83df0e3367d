import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { CurrentWorkspace, TakesQuery } from '../../shared/interface/http/auth.guard';
import { cursorParser, DEFAULT_PAGE_SIZE, limitParser, ListQueryPipe, timestampParser } from '../../shared/interface/http/list-query.pipe';
import {
  ApiErrors,
  ApiKeyAuth,
  CURSOR_QUERY,
  kbSchemas,
  LIMIT_QUERY,
  namedSchema,
  TIMESTAMP_SCHEMA,
} from '../../shared/interface/http/openapi.decorators';
import { BUYER_SCHEMA } from '../buyers/buyers.controller';
import { KB_RESOURCES } from '../kb/kb-resources';
import { SIGNAL_SCHEMA } from '../signals/signals.controller';
import { EVENT_TYPES, eventTypesParser } from './event-types';
import { EventListQuery, EventsService } from './events.service';
import { apiAndConsole } from '../../shared/interface/http/request-context';

const eventListQuery = new ListQueryPipe<EventListQuery>(
  { limit: limitParser, cursor: cursorParser, type: eventTypesParser, created_after: timestampParser },
  { limit: DEFAULT_PAGE_SIZE },
);

export const EVENT_SCHEMA = namedSchema('Event', {
  type: 'object',
  required: ['id', 'object', 'type', 'created_at', 'data'],
  properties: {
    id: { type: 'string', example: 'evt_0000000000000000042' },
    object: { type: 'string', enum: ['event'] },
    type: { type: 'string', enum: [...EVENT_TYPES] },
    created_at: TIMESTAMP_SCHEMA,
    data: {
      type: 'object',
      required: ['object'],
      properties: {
        object: {
          description:
            'The Signal (`signal.*`), Buyer (`buyer.*`) or knowledge-base record (`kb.<resource>.*`) as the API returns it, as it was after the change (before it, for a deletion).',
          anyOf: [SIGNAL_SCHEMA, BUYER_SCHEMA, ...KB_RESOURCES.map((resource) => kbSchemas(resource).record)],
        },
        previous_attributes: {
          type: 'object',
          additionalProperties: true,
          description:
            'On updates: the values before the change of the fields that changed (for nested objects, of their keys that changed).',
        },
      },
    },
  },
});

const EVENT_PAGE_SCHEMA = namedSchema('EventPage', {
  type: 'object',
  description: 'One page of the change feed, oldest first.',
  required: ['data', 'pagination'],
  properties: {
    data: { type: 'array', items: EVENT_SCHEMA },
    pagination: namedSchema('EventPagination', {
      type: 'object',
      required: ['next_cursor', 'resume_cursor'],
      additionalProperties: false,
      properties: {
        next_cursor: {
          type: 'string',
          nullable: true,
          description: 'More events are ready now when a string; null at the end of the feed.',
        },
        resume_cursor: {
          type: 'string',
          description:
            'Always a string: the position after this page. Store it and pass it as `cursor` later to get the events written since.',
        },
      },
    }),
  },
});

@Controller(apiAndConsole('v1/events', 'events'))
@ApiTags('Events')
@ApiKeyAuth()
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @ApiOperation({
    operationId: 'list_events',
    summary: 'The change feed: every event of the workspace, oldest first, each exactly once',
    description:
      'Events are listed in the order they became visible, which is stable: a client that stores `resume_cursor` and polls ' +
      'with it again sees every later event once, including those of activities that arrived late. Cursors stay valid for ' +
      'the events’ retention period (30 days by default).',
  })
  @ApiQuery(LIMIT_QUERY)
  @ApiQuery(CURSOR_QUERY)
  @ApiQuery({
    name: 'type',
    required: false,
    description: 'Event types, comma-separated; `buyer.*`, `kb.*` or `kb.icp.*` select every type under them.',
    schema: { type: 'string', example: 'signal.created,buyer.*' },
  })
  @ApiQuery({ name: 'created_after', required: false, description: '`created_at >= value`', schema: TIMESTAMP_SCHEMA })
  @ApiOkResponse({ description: 'One page of events', schema: EVENT_PAGE_SCHEMA })
  @ApiErrors({ list: true }, 400, 503)
  @TakesQuery()
  list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(eventListQuery) query: EventListQuery) {
    return this.events.list(ctx, query);
  }

  @Get(':event_id')
  @ApiOperation({ operationId: 'get_event', summary: 'Retrieve an event' })
  @ApiParam({ name: 'event_id', required: true, schema: { type: 'string', pattern: '^evt_', example: 'evt_0000000000000000042' } })
  @ApiOkResponse({ description: 'The event', schema: EVENT_SCHEMA })
  @ApiErrors({ record: 'Event' }, 404, 503)
  get(@CurrentWorkspace() ctx: WorkspaceContext, @Param('event_id') eventId: string) {
    return this.events.get(ctx, eventId);
  }
}
