import { formatTimestamp } from '../../shared/domain/clock';
import { formatId, ID_PREFIXES } from '../../shared/domain/ids';
import { icpResource } from '../kb/icps/icp.resource';
import { personaResource } from '../kb/personas/persona.resource';
import type { BuyerRow } from './buyers.repository';

const optionalId = (prefix: string, id: string | null): string => (id === null ? '' : formatId(prefix, id));

/** The public Buyer object: a whitelist, field by field, in the spec's order. */
export function presentBuyer(row: BuyerRow): Record<string, unknown> {
  return {
    id: formatId(ID_PREFIXES.buyer, row.id),
    client_id: formatId(ID_PREFIXES.workspace, row.workspace_id),
    contact_info: {
      ...row.contact_info,
      is_persona: row.persona_id !== null,
      persona_id: optionalId(personaResource.idPrefix, row.persona_id),
      persona_name: row.persona_name,
      persona_reasoning: row.persona_reasoning,
    },
    company_info: {
      ...row.company_info,
      is_icp: row.icp_id !== null,
      icp_id: optionalId(icpResource.idPrefix, row.icp_id),
      icp_name: row.icp_name,
      icp_reasoning: row.icp_reasoning,
    },
    hems: row.hems,
    // Target list management is not part of v1.
    target_lists: [],
    signal_count: {
      total: row.signal_count_total,
      website: row.signal_count_website,
      market: row.signal_count_market,
      linkedin: row.signal_count_linkedin,
    },
    attribution: row.attribution,
    first_signal_id: optionalId(ID_PREFIXES.signal, row.first_signal_id),
    last_signal_id: optionalId(ID_PREFIXES.signal, row.last_signal_id),
    first_signal_type: row.first_signal_type,
    last_signal_type: row.last_signal_type,
    first_signal_trigger: row.first_signal_trigger,
    last_signal_trigger: row.last_signal_trigger,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}
