import { Module } from '@nestjs/common';
import { ActivitiesModule } from '../activities/activities.module';
import { DirectoryModule } from '../directory/directory.module';
import { EnrichStep } from './application/enrich.step';
import { EvaluateStep } from './application/evaluate.step';
import { MatchStep } from './application/match.step';
import { ResolveStep } from './application/resolve.step';
import { DefaultEvaluator } from './domain/default-evaluator';
import { EVALUATOR } from './domain/evaluator';
import { BuyerWriter } from './infrastructure/buyer-writer';
import { KbLookupRepository } from './infrastructure/kb-lookup.repository';
import { MatchWriter } from './infrastructure/match-writer';
import { PipelineQueueModule } from './pipeline-queue.module';
import { pipelineWorkersProvider } from './infrastructure/processors';
import { PipelineSweeper } from './infrastructure/sweeper';

/**
 * The pipeline workers: the steps, their workers (one per step and queue group) and the sweeper. Only worker processes
 * (and the API when RUN_WORKERS is on) import it; producing jobs needs PipelineQueueModule only.
 */
@Module({
  imports: [PipelineQueueModule, DirectoryModule, ActivitiesModule],
  providers: [
    ResolveStep,
    EnrichStep,
    EvaluateStep,
    MatchStep,
    KbLookupRepository,
    BuyerWriter,
    MatchWriter,
    { provide: EVALUATOR, useClass: DefaultEvaluator },
    pipelineWorkersProvider(),
    PipelineSweeper,
  ],
  exports: [PipelineSweeper],
})
export class PipelineModule {}
