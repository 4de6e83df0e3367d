import { formatTimestamp } from '../../shared/domain/clock';
import { formatId, ID_PREFIXES } from '../../shared/domain/ids';
import type { SignalRow } from './signals.repository';

/** The public Signal: exactly the object matching `type` is populated, the other two are null. */
export function presentSignal(row: SignalRow): Record<string, unknown> {
  return {
    id: formatId(ID_PREFIXES.signal, row.id),
    buyer_id: formatId(ID_PREFIXES.buyer, row.buyer_id),
    type: row.type,
    website: row.type === 'website' ? row.data : null,
    market: row.type === 'market' ? row.data : null,
    linkedin: row.type === 'linkedin' ? row.data : null,
    captured_at: formatTimestamp(row.captured_at),
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}
