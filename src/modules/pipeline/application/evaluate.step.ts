import { Inject, Injectable } from '@nestjs/common';
import { WorkspaceContext } from '../../../shared/application/workspace-context';
import { Clock } from '../../../shared/domain/clock';
import { CLOCK } from '../../../shared/shared.module';
import { ActivitiesRepository } from '../../activities/activities.repository';
import type { ActivityEntity } from '../../activities/activity.entity';
import { CompanyInfo, ContactInfo, mergeKnown } from '../../buyers/buyer-shape';
import { EVALUATOR, Evaluator, KbProfile } from '../domain/evaluator';
import { KbLookupRepository } from '../infrastructure/kb-lookup.repository';
import type { PipelineQueue } from '../infrastructure/queues';
import { PipelineStep } from './pipeline-step';

/** Read with the activity: the active ICPs and Personas, and the person's Buyer if there is one. */
interface EvaluationInputs {
  icps: KbProfile[];
  personas: KbProfile[];
  known: { contact_info: ContactInfo; company_info: CompanyInfo } | null;
}

/** Evaluate: the company against the active ICPs, the person against the active Personas. */
@Injectable()
export class EvaluateStep extends PipelineStep {
  readonly stage = 'evaluate' as const;
  protected override readonly extraColumns = [
    KbLookupRepository.columns.profiles('icps'),
    KbLookupRepository.columns.profiles('personas'),
    KbLookupRepository.columns.known,
  ].join(', ');

  constructor(
    activities: ActivitiesRepository,
    @Inject(EVALUATOR) private readonly evaluator: Evaluator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super(activities);
  }

  protected async process(ctx: WorkspaceContext, activity: ActivityEntity & EvaluationInputs): Promise<PipelineQueue | null> {
    const { icps, personas, known } = activity;
    // Judge the person as the Buyer will be after this activity: what was known, updated by it.
    const company = known ? mergeKnown(known.company_info, activity.company_info!) : activity.company_info!;
    const contact = known ? mergeKnown(known.contact_info, activity.contact_info!) : activity.contact_info!;
    const evaluation = {
      icp: this.evaluator.evaluateCompany(company, icps),
      persona: this.evaluator.evaluatePerson(contact, company, personas),
    };
    await this.activities.advance(ctx, activity.id, 'evaluate', { stage: 'match', evaluation }, this.clock.now());
    return 'match';
  }
}
