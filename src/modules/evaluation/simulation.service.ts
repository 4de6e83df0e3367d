import { Injectable } from '@nestjs/common';
import { AppError } from '../../shared/application/app-error';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { BuyersService } from '../buyers/buyers.service';
import { IcpsService } from '../kb/icps/icp.resource';
import { PersonasService } from '../kb/personas/persona.resource';
import { draftBody } from './draft-body';
import { BuyerFacts, Check, ProfileJudge, ProfileVerdict, publicKind, Subject } from '../pipeline/profile-judge';

export const SIMULATE_DEFAULT_BUYERS = 1_000;
export const SIMULATE_MAX_BUYERS = 10_000;
/** Examples of Buyers that enter and that leave, at most this many of each. */
const EXAMPLES = 10;

export interface SimulationInput {
  description: string;
  limit: number;
}

/** The criterion that decides a Buyer's move, with its verdict under each description. */
export interface Difference {
  kind: string;
  buyer_value: string;
  now: { status: Check['status']; expected: string } | null;
  draft: { status: Check['status']; expected: string } | null;
}

export interface SimulationExample {
  buyer_id: string;
  name: string;
  company: string;
  criterion: Difference | null;
}

export interface SimulationResult {
  evaluated: number;
  matched_now: number;
  matched_with_draft: number;
  entered: number;
  left: number;
  examples: { entered: SimulationExample[]; left: SimulationExample[] };
}

/** Reads `{description, limit?}`; anything else is a 400 naming the field. The draft follows the KB's description rule. */
export function simulationInput(body: unknown): SimulationInput {
  const { description, limit } = draftBody(body, ['limit']);
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > SIMULATE_MAX_BUYERS)) {
    throw AppError.validation('limit', `limit must be an integer from 1 to ${SIMULATE_MAX_BUYERS}.`);
  }
  return { description, limit: limit ?? SIMULATE_DEFAULT_BUYERS };
}

function personName(facts: BuyerFacts): string {
  const { first, middle, last } = facts.contact.info.name;
  return [first, middle, last].filter((part) => part).join(' ');
}

/**
 * Why a Buyer moved: for one that enters, a criterion the stored description failed it on that
 * the draft passes (or no longer has); for one that leaves, a criterion the draft fails it on that
 * the stored description passed (or did not have). Failing that, the first failed check of the
 * side that refuses it, else the first passed check of the side that accepts it.
 */
function difference(refusing: ProfileVerdict | null, accepting: ProfileVerdict, refusingIs: 'now' | 'draft'): Difference | null {
  const status = (verdict: ProfileVerdict | null, kind: string) => verdict?.checks.find((c) => c.kind === kind) ?? null;
  const failed = refusing?.checks.filter((c) => c.status === 'failed') ?? [];
  const decisive = failed.find((c) => status(accepting, c.kind)?.status !== 'failed') ?? failed[0];
  const check = decisive ?? accepting.checks.find((c) => c.status === 'passed');
  if (!check) return null;
  const refused = status(refusing, check.kind);
  const accepted = status(accepting, check.kind);
  const side = (c: Check | null) => (c ? { status: c.status, expected: c.expected } : null);
  return {
    kind: publicKind(check.kind),
    buyer_value: check.actual,
    now: side(refusingIs === 'now' ? refused : accepted),
    draft: side(refusingIs === 'now' ? accepted : refused),
  };
}

/**
 * What-if for an ICP or Persona description: the workspace's most recent Buyers judged by the
 * stored description (when there is one) and by the draft, with nothing written. The default
 * evaluator's criteria are compared one by one to say why a Buyer enters or leaves.
 */
@Injectable()
export class SimulationService {
  private readonly judge = new ProfileJudge();

  constructor(
    private readonly buyers: BuyersService,
    private readonly icps: IcpsService,
    private readonly personas: PersonasService,
  ) {}

  /** `id` null simulates a new profile: no Buyer matches it now. */
  async simulate(ctx: WorkspaceContext, subject: Subject, id: string | null, body: unknown): Promise<SimulationResult> {
    const input = simulationInput(body);
    const service = subject === 'icp' ? this.icps : this.personas;
    const record = id === null ? null : await service.get(ctx, id);
    const stored = record
      ? { key: `stored:${record.id}`, description: typeof record.description === 'string' ? record.description : '' }
      : null;
    const buyers = await this.buyers.recentProfiles(ctx, input.limit);

    const result: SimulationResult = {
      evaluated: buyers.length,
      matched_now: 0,
      matched_with_draft: 0,
      entered: 0,
      left: 0,
      examples: { entered: [], left: [] },
    };
    for (const [index, buyer] of buyers.entries()) {
      // Thousands of Buyers are a few hundred milliseconds of CPU: let other requests in meanwhile.
      if (index > 0 && index % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
      const facts = this.judge.facts(buyer.company_info, buyer.contact_info);
      const now = stored ? this.judge.judge(subject, stored.key, stored.description, facts) : null;
      const draft = this.judge.judge(subject, 'draft', input.description, facts);
      const wasIn = now?.matched ?? false;
      if (wasIn) result.matched_now += 1;
      if (draft.matched) result.matched_with_draft += 1;
      if (wasIn === draft.matched) continue;
      const move = draft.matched ? 'entered' : 'left';
      result[move] += 1;
      if (result.examples[move].length < EXAMPLES) {
        result.examples[move].push({
          buyer_id: buyer.id,
          name: personName(facts),
          company: facts.company.info.name,
          criterion: draft.matched ? difference(now, draft, 'now') : difference(draft, now!, 'draft'),
        });
      }
    }
    return result;
  }
}
