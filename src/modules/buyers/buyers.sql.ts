/*
 * The Buyer read model's SELECTs.
 *
 * The association columns come back only while the matched ICP/Persona is active in the same
 * workspace: deleting it removes the association on read, without rewriting any Buyer. The
 * reasoning of a non-match (why no profile fitted) is shown as it was written.
 */

/** The matched ICP (`<b>_icp`) and Persona (`<b>_persona`) of the Buyer `b`, joined only while active in its workspace. */
export function associationJoins(b: string): string {
  const [i, p] = [`${b}_icp`, `${b}_persona`];
  return `
    LEFT JOIN icps ${i} ON ${b}.is_icp AND ${i}.id = ${b}.icp_id AND ${i}.workspace_id = ${b}.workspace_id AND ${i}.deleted_at IS NULL
    LEFT JOIN personas ${p} ON ${b}.is_persona AND ${p}.id = ${b}.persona_id AND ${p}.workspace_id = ${b}.workspace_id AND ${p}.deleted_at IS NULL`;
}

/** The association columns as a client sees them, by name, read through `associationJoins(b)`. */
function associationColumns(b: string): Record<string, string> {
  const [i, p] = [`${b}_icp`, `${b}_persona`];
  return {
    icp_id: `${i}.id`,
    icp_name: `CASE WHEN ${i}.id IS NULL THEN '' ELSE ${b}.icp_name END`,
    icp_reasoning: `CASE WHEN ${b}.is_icp AND ${i}.id IS NULL THEN '' ELSE ${b}.icp_reasoning END`,
    persona_id: `${p}.id`,
    persona_name: `CASE WHEN ${p}.id IS NULL THEN '' ELSE ${b}.persona_name END`,
    persona_reasoning: `CASE WHEN ${b}.is_persona AND ${p}.id IS NULL THEN '' ELSE ${b}.persona_reasoning END`,
  };
}

const ASSOCIATIONS = associationJoins('b');
const ASSOCIATION_COLUMNS = Object.entries(associationColumns('b'))
  .map(([name, sql]) => `\n         ${sql} AS ${name}`)
  .join(',');

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

function jsonOf(alias: string, fields: typeof ROW_FIELDS, columns: Record<string, string> = {}): string {
  return `json_build_object(${fields.map(([name, bigint]) => `'${name}', ${columns[name] ?? `${alias}.${name}`}${bigint ? '::text' : ''}`).join(', ')})`;
}

/**
 * What an update event keeps of the Buyer before it (`previous`): the counters, the first and last
 * Signal, its attribution and the evaluation, which Signals change; not the contact and company
 * objects, which would double every event's size. Read through `associationJoins(alias)`.
 */
export function buyerPreviousJson(alias: string): string {
  const kept = ROW_FIELDS.filter(([name]) => !['id', 'workspace_id', 'contact_info', 'company_info', 'hems', 'created_at'].includes(name));
  // The association as a client saw it then: one with a since deleted ICP or Persona was shown as none.
  return jsonOf(alias, kept, associationColumns(alias));
}
