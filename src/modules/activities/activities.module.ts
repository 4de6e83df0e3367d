import { Module } from '@nestjs/common';
import { PipelineQueueModule } from '../pipeline/pipeline-queue.module';
import { ActivitiesController } from './activities.controller';
import { ActivitiesRepository } from './activities.repository';
import { ActivitiesService } from './activities.service';

@Module({
  imports: [PipelineQueueModule],
  controllers: [ActivitiesController],
  providers: [ActivitiesRepository, ActivitiesService],
  exports: [ActivitiesService, ActivitiesRepository],
})
export class ActivitiesModule {}
