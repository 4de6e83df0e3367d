import { Inject, Injectable } from '@nestjs/common';
import { WorkspaceContext } from '../../../shared/application/workspace-context';
import { BuyerEvaluation, FieldSources, withSources } from '../../buyers/buyer-evaluation';
import { CompanyInfo, ContactInfo, mergeKnown } from '../../buyers/buyer-shape';
import { EVALUATOR, Evaluator, KbProfile } from '../domain/evaluator';
import { KbLookupRepository } from '../infrastructure/kb-lookup.repository';
import { carriedWith, PipelineJob, PipelineQueue } from '../queues';
import { PipelineStep, restart } from './pipeline-step';

/**
 * A person judged as `known` describes them: the company against the ICPs, the person against the
 * Personas, each criterion with the source of the value it read.
 */
export function judge(
  evaluator: Evaluator,
  known: { contact_info: ContactInfo; company_info: CompanyInfo; sources: FieldSources },
  profiles: { icps: readonly KbProfile[]; personas: readonly KbProfile[] },
): BuyerEvaluation {
  return {
    icp: withSources(evaluator.evaluateCompany(known.company_info, profiles.icps), known.sources),
    persona: withSources(evaluator.evaluatePerson(known.contact_info, known.company_info, profiles.personas), known.sources),
  };
}

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
    const company_info = known ? mergeKnown(known.company_info, carried.company_info) : carried.company_info;
    const contact_info = known ? mergeKnown(known.contact_info, carried.contact_info) : carried.contact_info;
    // A value this activity brought has this activity's source; the others keep the Buyer's.
    const sources = { ...known?.sources, ...carried.sources };
    const evaluation = judge(this.evaluator, { contact_info, company_info, sources }, { icps, personas });
    job.carried = { ...carried, evaluation };
    return 'match';
  }
}
