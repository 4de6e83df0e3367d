import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { CurrentWorkspace } from '../../shared/interface/http/workspace.interceptor';
import { ActivitiesService } from './activities.service';

/** How raw activity enters the pipeline (the tracking pixel and data providers call it). */
@Controller('ingest/v1/activities')
export class ActivitiesController {
  constructor(private readonly activities: ActivitiesService) {}

  /** 202: the activities are stored and queued; processing happens asynchronously. */
  @Post()
  @HttpCode(202)
  intake(@CurrentWorkspace() ctx: WorkspaceContext, @Body() body: unknown) {
    return this.activities.intake(ctx, body);
  }

  @Get(':id')
  status(@CurrentWorkspace() ctx: WorkspaceContext, @Param('id') id: string) {
    return this.activities.status(ctx, id);
  }
}
