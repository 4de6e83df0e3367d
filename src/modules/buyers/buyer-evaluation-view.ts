import { formatId, ID_PREFIXES } from '../../shared/domain/ids';
import { icpResource } from '../kb/icps/icp.resource';
import { personaResource } from '../kb/personas/persona.resource';
import type { CriterionVerdict, FieldSource, SideEvaluation } from './buyer-evaluation';
import type { BuyerEvaluationRow } from './buyers.repository';

function presentSource(source: FieldSource | null | undefined): Record<string, string> | null {
  if (!source) return null;
  return source.type === 'activity'
    ? { type: 'activity', activity_id: formatId(ID_PREFIXES.activity, source.activity_id) }
    : { type: 'enrichment', provider: source.provider };
}

function presentCriterion(row: CriterionVerdict): Record<string, unknown> {
  return {
    kind: row.kind,
    label: row.label,
    status: row.status,
    expected: row.expected,
    value: row.value,
    source: presentSource(row.source),
  };
}

/**
 * One side as the public Buyer shows it: `matched` and `reasoning` are the Buyer's
 * `is_icp`/`icp_reasoning` (or Persona's). A match whose profile was deleted since reads as no
 * match, with no profile and no criteria, as on the Buyer; a non-match keeps the closest profile
 * and its verdicts as they were made.
 */
function presentSide(
  prefix: string,
  stored: SideEvaluation | undefined,
  matchedId: string | null,
  matchedName: string,
  reasoning: string,
): Record<string, unknown> {
  const matched = matchedId !== null;
  const removed = !matched && stored?.matched === true;
  const profile = matched ? { id: matchedId, name: matchedName } : removed ? null : (stored?.profile ?? null);
  return {
    matched,
    profile: profile ? { id: formatId(prefix, profile.id), name: profile.name } : null,
    reasoning,
    criteria: removed ? [] : (stored?.criteria ?? []).map(presentCriterion),
  };
}

/** The public evaluation object of a Buyer. */
export function presentBuyerEvaluation(row: BuyerEvaluationRow): Record<string, unknown> {
  const stored = row.evaluation;
  return {
    object: 'buyer_evaluation',
    buyer_id: formatId(ID_PREFIXES.buyer, row.id),
    activity_id: stored?.activity_id ? formatId(ID_PREFIXES.activity, stored.activity_id) : null,
    icp: presentSide(icpResource.idPrefix, stored?.icp, row.icp_id, row.icp_name, row.icp_reasoning),
    persona: presentSide(personaResource.idPrefix, stored?.persona, row.persona_id, row.persona_name, row.persona_reasoning),
  };
}
