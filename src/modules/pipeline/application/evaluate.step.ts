import { Inject, Injectable } from '@nestjs/common';
import { WorkspaceContext } from '../../../shared/application/workspace-context';
import { withSources } from '../../buyers/buyer-evaluation';
import { mergeKnown } from '../../buyers/buyer-shape';
import { EVALUATOR, Evaluator } from '../domain/evaluator';
import { KbLookupRepository } from '../infrastructure/kb-lookup.repository';
import { carriedWith, PipelineJob, PipelineQueue } from '../queues';
import { PipelineStep, restart } from './pipeline-step';

/** Evaluate: the company against the active ICPs, the person against the active Personas. */
@Injectable()
export class EvaluateStep extends PipelineStep {
  constructor(
    private readonly kb: KbLookupRepository,
    @Inject(EVALUATOR) private readonly evaluator: Evaluator,
  ) {
    super();
  }

  async run(job: PipelineJob): Promise<PipelineQueue | null> {
    const carried = carriedWith(job, 'contact_info', 'company_info');
    if (!carried) return restart(job);
    const ctx = WorkspaceContext.forPipeline(job.workspaceId);
    const { icps, personas, known } = await this.kb.evaluationInputs(ctx, carried.identity.personKey);
    // Judge the person as the Buyer will be after this activity: what was known, updated by it.
    const company = known ? mergeKnown(known.company_info, carried.company_info) : carried.company_info;
    const contact = known ? mergeKnown(known.contact_info, carried.contact_info) : carried.contact_info;
    // A value this activity brought has this activity's source; the others keep the Buyer's.
    const sources = { ...known?.sources, ...carried.sources };
    const evaluation = {
      icp: withSources(this.evaluator.evaluateCompany(company, icps), sources),
      persona: withSources(this.evaluator.evaluatePerson(contact, company, personas), sources),
    };
    job.carried = { ...carried, evaluation };
    return 'match';
  }
}
