import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { PipelineQueueModule } from '../pipeline/pipeline-queue.module';
import { HealthController } from './health.controller';

@Module({ imports: [TerminusModule.forRoot({ logger: false }), PipelineQueueModule], controllers: [HealthController] })
export class HealthModule {}
