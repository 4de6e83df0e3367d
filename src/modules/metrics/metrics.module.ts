import { Global, Module } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { PipelineQueueModule } from '../pipeline/pipeline-queue.module';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/**
 * One registry per application rather than prom-client's global one: several applications in
 * one process (tests, a console backend beside the API) would otherwise register the same
 * metric names twice and mix their counts.
 */
export function createRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'bi_' });
  return registry;
}

/**
 * Global so that the pipeline processors can count their jobs without the pipeline module
 * depending on it; where it is not imported (the worker process) they count nothing.
 */
@Global()
@Module({
  imports: [PipelineQueueModule],
  controllers: [MetricsController],
  providers: [{ provide: Registry, useFactory: createRegistry }, MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
