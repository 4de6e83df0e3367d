/*
 * The Buyer read model's SELECTs.
 *
 * The association columns come back only while the matched ICP/Persona is active in the same
 * workspace: deleting it removes the association on read, without rewriting any Buyer. The
 * reasoning of a non-match (why no profile fitted) is shown as it was written.
 */

/** The Buyer's matched ICP (`i`) and Persona (`p`), joined only while active in its workspace. */
const ASSOCIATIONS = `
    LEFT JOIN icps i ON b.is_icp AND i.id = b.icp_id AND i.workspace_id = b.workspace_id AND i.deleted_at IS NULL
    LEFT JOIN personas p ON b.is_persona AND p.id = b.persona_id AND p.workspace_id = b.workspace_id AND p.deleted_at IS NULL`;

const ASSOCIATION_COLUMNS = `
         i.id AS icp_id, CASE WHEN i.id IS NULL THEN '' ELSE b.icp_name END AS icp_name,
         CASE WHEN b.is_icp AND i.id IS NULL THEN '' ELSE b.icp_reasoning END AS icp_reasoning,
         p.id AS persona_id, CASE WHEN p.id IS NULL THEN '' ELSE b.persona_name END AS persona_name,
         CASE WHEN b.is_persona AND p.id IS NULL THEN '' ELSE b.persona_reasoning END AS persona_reasoning`;

/** Shared by every query of the public Buyer object. */
export const BUYER_SELECT = `
  SELECT b.id, b.workspace_id, b.contact_info, b.company_info, b.hems, b.attribution,${ASSOCIATION_COLUMNS},
         b.signal_count_total, b.signal_count_website, b.signal_count_market, b.signal_count_linkedin,
         b.first_signal_id, b.first_signal_type, b.first_signal_trigger,
         b.last_signal_id, b.last_signal_type, b.last_signal_trigger,
         b.created_at, b.updated_at
    FROM buyers b${ASSOCIATIONS}`;

/** A Buyer's latest evaluation, criterion by criterion, beside its association as `BUYER_SELECT` reads it. */
export const BUYER_EVALUATION_SELECT = `
  SELECT b.id, b.evaluation,${ASSOCIATION_COLUMNS}
    FROM buyers b${ASSOCIATIONS}
   WHERE b.workspace_id = $1 AND b.id = $2`;

/** Columns of the Buyer's row that `BuyerRow` reads, in its order, with their SQL; bigints as text. */
const ROW_FIELDS: ReadonlyArray<[name: string, bigint?: true]> = [
  ['id', true],
  ['workspace_id', true],
  ['contact_info'],
  ['company_info'],
  ['hems'],
  ['attribution'],
  ['icp_id', true],
  ['icp_name'],
  ['icp_reasoning'],
  ['persona_id', true],
  ['persona_name'],
  ['persona_reasoning'],
  ['signal_count_total'],
  ['signal_count_website'],
  ['signal_count_market'],
  ['signal_count_linkedin'],
  ['first_signal_id', true],
  ['first_signal_type'],
  ['first_signal_trigger'],
  ['last_signal_id', true],
  ['last_signal_type'],
  ['last_signal_trigger'],
  ['created_at'],
  ['updated_at'],
];

/**
 * A Buyer row of `alias` as JSON in the shape of `BuyerRow` (what an event keeps of a Buyer).
 * The stored association is the one made then: a Buyer's `icp_id` is null unless it matched.
 */
export function buyerRowJson(alias: string): string {
  return jsonOf(alias, ROW_FIELDS);
}

function jsonOf(alias: string, fields: typeof ROW_FIELDS): string {
  return `json_build_object(${fields.map(([name, bigint]) => `'${name}', ${alias}.${name}${bigint ? '::text' : ''}`).join(', ')})`;
}

/**
 * What an update event keeps of the Buyer before it (`previous`): the counters, the first and last
 * Signal, its attribution and the evaluation, which Signals change; not the contact and company
 * objects, which would double every event's size.
 */
export function buyerPreviousJson(alias: string): string {
  const kept = ROW_FIELDS.filter(([name]) => !['id', 'workspace_id', 'contact_info', 'company_info', 'hems', 'created_at'].includes(name));
  return jsonOf(alias, kept);
}
