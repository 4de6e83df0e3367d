import { Module } from '@nestjs/common';
import { KbModule } from '../kb/kb.module';
import { EventsController } from './events.controller';
import { EventsPruner } from './events-pruner';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/** The change feed (`GET /v1/events`): events written with each change, presented as their objects. */
@Module({
  imports: [KbModule],
  controllers: [EventsController],
  providers: [EventsRepository, EventsService],
  exports: [EventsService, EventsRepository],
})
export class EventsModule {}

/** Retention of events, run by the processes that run workers. */
@Module({
  imports: [EventsModule],
  providers: [EventsPruner],
  exports: [EventsPruner],
})
export class EventsRetentionModule {}
