/**
 * Set-based SQL of the bulk generator. Ids follow the service's layout (milliseconds since
 * 2024-01-01 in the high bits, 22 random low bits); a rare collision is skipped by
 * `ON CONFLICT DO NOTHING` and topped up by the caller.
 */

const ID_EPOCH_MS = Date.UTC(2024, 0, 1);
const idFrom = (timestamp: string) =>
  `(((floor(extract(epoch FROM ${timestamp}) * 1000))::bigint - ${ID_EPOCH_MS}) << 22) | floor(random() * 4194304)::bigint`;
const pick = (array: string) => `(${array})[1 + floor(random() * array_length(${array}, 1))::int]`;

/**
 * The evaluated companies and roles Buyers are drawn from (`bulk-seed.pool.ts`), as temporary
 * tables of the session: $1 is the JSON array of `PoolCompany`, $2 of `PoolRole`.
 */
export const CREATE_PEOPLE_POOL = [
  'DROP TABLE IF EXISTS seed_companies, seed_roles',
  `CREATE TEMPORARY TABLE seed_companies (
     n int PRIMARY KEY, domain text, company json, first_names text[], last_names text[], first_slugs text[], last_slugs text[],
     is_icp boolean, icp_id bigint, icp_name text, icp_reasoning text, icp_evaluation json)`,
  `CREATE TEMPORARY TABLE seed_roles (
     company_n int, role_n int, title text, function text, seniority text,
     is_persona boolean, persona_id bigint, persona_name text, persona_reasoning text, persona_evaluation json,
     PRIMARY KEY (company_n, role_n))`,
];
export const FILL_PEOPLE_POOL = [
  'INSERT INTO seed_companies SELECT * FROM json_populate_recordset(NULL::seed_companies, $1::json)',
  'INSERT INTO seed_roles SELECT * FROM json_populate_recordset(NULL::seed_roles, $1::json)',
];
export const DROP_PEOPLE_POOL = 'DROP TABLE seed_companies, seed_roles';

/*
 * Parameters: $1 workspace, $2 how many, $3 run tag, $4 days back, $5 companies in seed_companies,
 * $6 role numbers to pick from (weighted by repetition), $7 1 when a role's verdict depends on the
 * company (else the roles are stored once, under company 0). Each Buyer is a random role at a random
 * company of the pool, with names of the company's country, and the evaluation of that role at
 * that company. A third of the rows are cut to the hour, so many share a timestamp.
 */
export const INSERT_BUYERS = `
INSERT INTO buyers (id, workspace_id, person_key, contact_info, company_info, hems, attribution,
                    is_icp, icp_id, icp_name, icp_reasoning, is_persona, persona_id, persona_name, persona_reasoning,
                    evaluation, created_at, updated_at)
SELECT ${idFrom('p.created_at')}, $1, 'seed:' || $3 || ':' || p.g,
       json_build_object(
         'name', json_build_object('first', p.first, 'middle', '', 'last', p.last),
         'role', json_build_object('title', p.title, 'function', p.function, 'seniority', p.seniority,
                                   'start_date', to_char(p.created_at - (60 + p.g % 2500) * interval '1 day', 'YYYY-MM-DD')),
         'email', json_build_object('work', p.email, 'is_valid', true),
         'phone', json_build_object('mobile', '', 'is_valid', false),
         'social', json_build_object('linkedin', 'https://www.linkedin.com/in/' || p.first_slug || '-' || p.last_slug || '-' || to_hex(p.g * 2654435761 % 1048576),
                                     'twitter', '', 'github', '', 'facebook', '',
                                     'linkedin_followers', floor(random() * 5000)::int, 'is_linkedin_valid', true),
         'location', json_build_object('city', p.company -> 'location' ->> 'city', 'state', '', 'country', p.company -> 'location' ->> 'country', 'postal_code', ''),
         'photo_url', ''),
       p.company,
       json_build_array(json_build_object('type', 'sha256', 'value', encode(sha256(convert_to(p.email, 'UTF8')), 'hex')),
                        json_build_object('type', 'md5', 'value', md5(p.email))),
       json_build_object('type', '', 'source', '', 'source_name', '', 'source_logo', ''),
       p.is_icp, p.icp_id, p.icp_name, p.icp_reasoning, p.is_persona, p.persona_id, p.persona_name, p.persona_reasoning,
       json_build_object('icp', p.icp_evaluation, 'persona', p.persona_evaluation, 'activity_id', NULL),
       p.created_at, p.created_at
  FROM (
    SELECT d.g, d.created_at, c.company, c.is_icp, c.icp_id, c.icp_name, c.icp_reasoning, c.icp_evaluation,
           r.title, r.function, r.seniority, r.is_persona, r.persona_id, r.persona_name, r.persona_reasoning, r.persona_evaluation,
           c.first_names[k.f] AS first, c.last_names[k.l] AS last, c.first_slugs[k.f] AS first_slug, c.last_slugs[k.l] AS last_slug,
           c.first_slugs[k.f] || '.' || c.last_slugs[k.l] || '@' || c.domain AS email
      FROM (
        SELECT g, 1 + floor(random() * $5::int)::int AS company_n, ${pick('$6::int[]')} AS role_n, random() AS fr, random() AS lr,
               date_trunc(CASE WHEN g % 3 = 0 THEN 'hour' ELSE 'second' END, now() - random() * ($4 || ' days')::interval) AS created_at
          FROM generate_series(1, $2::int) AS g
        -- OFFSET 0 keeps the random picks per row, computed once, so the joins below can hash on them.
        OFFSET 0
      ) d
      JOIN seed_companies c ON c.n = d.company_n
      JOIN seed_roles r ON r.company_n = d.company_n * $7::int AND r.role_n = d.role_n
      CROSS JOIN LATERAL (SELECT 1 + floor(d.fr * cardinality(c.first_names))::int AS f, 1 + floor(d.lr * cardinality(c.last_names))::int AS l) k
  ) p
ON CONFLICT DO NOTHING`;

/** The workspace's ($1) Buyers numbered 1..n, so a random Buyer is a hash-join away. */
export const CREATE_BUYER_POOL = `
CREATE TEMPORARY TABLE seed_buyer_pool AS
SELECT id AS buyer_id, row_number() OVER () AS n FROM buyers WHERE workspace_id = $1`;

/*
 * Parameters: $1 workspace, $2 how many, $3 days back, $4 page paths, $5 topics, $6 sources, $7 the
 * site's host, $8 competitor domains, $9 competitor names;
 * reads the temporary seed_buyer_pool.
 * Triggers cycle through all nine; buyers are drawn from the workspace at random. An eighth of
 * the rows are cut to the hour and another eighth to the minute, so many share a captured_at.
 */
export const INSERT_SIGNALS = `
WITH pool_size AS (SELECT count(*) AS size FROM seed_buyer_pool)
INSERT INTO signals (id, workspace_id, buyer_id, type, trigger, data, captured_at, created_at, updated_at)
SELECT ${idFrom('s.created_at')}, $1, s.buyer_id, s.type, s.trigger,
       CASE s.type
         WHEN 'website' THEN json_build_object(
           'trigger', s.trigger, 'attribution', s.attribution,
           'url', json_build_object('raw', 'https://' || $7 || s.path || '?utm_source=' || s.source || '&utm_medium=cpc',
                                    'canonical', $7 || s.path, 'domain', $7, 'path', s.path),
           'utm', json_build_object('source', s.source, 'medium', 'cpc', 'campaign', '', 'term', '', 'content', ''),
           'click_ids', json_build_object('gclid', CASE WHEN s.g % 4 = 0 THEN md5(s.g::text) END, 'gbraid', NULL, 'wbraid', NULL, 'dclid', NULL,
                                          'li_fat_id', NULL, 'msclkid', NULL, 'fbclid', NULL, 'ttclid', NULL, 'twclid', NULL),
           'target_page', json_build_object('id', '', 'name', initcap(replace(substr(s.path, 2), '-', ' ')), 'short_name', substr(s.path, 2), 'description', ''),
           'session', json_build_object('id', 'ses_' || md5(s.g::text || $1::bigint::text), 'started_at', to_char(s.captured_at - interval '2 minutes', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                                        'ended_at', to_char(s.captured_at + interval '3 minutes', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'duration_secs', 300),
           'device', json_build_object('browser', 'Chrome', 'browser_version', '131.0', 'os', (ARRAY['macOS', 'Windows', 'Linux'])[1 + s.g % 3],
                                       'os_version', '', 'device_type', 'desktop', 'language', 'en-US'),
           'location', json_build_object('ip', '203.0.113.' || (s.g % 250), 'city', '', 'state', '', 'country', 'United States', 'country_code', 'US',
                                         'postal_code', '', 'timezone', 'America/New_York', 'latitude', 40.7, 'longitude', -74.0),
           'page', json_build_object('visited_at', to_char(s.captured_at, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                                     'first_visited_at', to_char(s.captured_at - interval '3 days', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                                     'last_visited_at', to_char(s.captured_at, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                                     'time_spent_secs', 30 + s.g % 300, 'visit_count', 1 + s.g % 7, 'total_time_spent_secs', 60 + s.g % 900))
         WHEN 'market' THEN json_build_object('trigger', s.trigger, 'attribution', s.attribution, 'topic', s.topic,
                                              'company_website', 'https://www.' || ($8::text[])[1 + s.g % cardinality($8::text[])])
         ELSE json_build_object('trigger', s.trigger, 'attribution', s.attribution, 'source', 'linkedin',
                                'url', 'https://www.linkedin.com/feed/update/urn:li:activity:' || s.g,
                                'comment', CASE WHEN s.trigger = 'commented_post' THEN 'Interesting take on ' || s.topic ELSE '' END,
                                'reaction_type', CASE WHEN s.trigger = 'reacted_post' THEN 'like' ELSE '' END,
                                'company_name', ($9::text[])[1 + s.g % cardinality($9::text[])], 'post_title', s.topic)
       END,
       s.captured_at, s.created_at, s.created_at
  FROM (
    SELECT r.*, r.captured_at + floor(random() * 300000) * interval '1 millisecond' AS created_at,
           CASE WHEN r.trigger IN ('visited_page', 'filled_form', 'abandoned_form') THEN 'website'
                WHEN r.trigger IN ('researched_topic', 'explored_product', 'evaluated_competitor') THEN 'market'
                ELSE 'linkedin' END AS type,
           json_build_object('type', 'organic', 'source', r.source, 'source_name', initcap(r.source), 'source_logo', '') AS attribution
      FROM (
        SELECT d.g, pool.buyer_id, d.trigger, d.path, d.topic, d.source, d.captured_at
          FROM (
            SELECT g, 1 + floor(random() * pool_size.size)::int AS pick,
                   (ARRAY['visited_page', 'filled_form', 'abandoned_form', 'researched_topic', 'explored_product',
                          'evaluated_competitor', 'followed_page', 'commented_post', 'reacted_post'])[1 + g % 9] AS trigger,
                   ${pick('$4::text[]')} AS path, ${pick('$5::text[]')} AS topic, ${pick('$6::text[]')} AS source,
                   date_trunc(CASE WHEN g % 8 = 0 THEN 'hour' WHEN g % 4 = 0 THEN 'minute' ELSE 'second' END, now() - random() * ($3 || ' days')::interval) AS captured_at
              FROM generate_series(1, $2::int) AS g CROSS JOIN pool_size
            -- OFFSET 0 keeps the random pick per row, computed once, so the join below can hash on it.
            OFFSET 0
          ) d
          -- A random Buyer by position: a join, since indexing a large array per row copies it each time.
          JOIN seed_buyer_pool pool ON pool.n = d.pick
      ) r
  ) s
 -- Inserting in index order keeps the index pages being written hot.
 ORDER BY s.captured_at DESC
ON CONFLICT DO NOTHING`;

/**
 * Recomputes counters, first/last Signal and attribution of every Buyer of the workspace ($1)
 * from its Signals. First and last rows come from walking the (workspace, buyer, captured_at, id)
 * index both ways, so nothing is sorted. The attribution is read with the first row: looked up by
 * id alone, it would scan the whole (workspace, id) key once per Buyer.
 */
export const REFRESH_BUYER_SUMMARIES = `
WITH counts AS (
  SELECT buyer_id, count(*) AS total,
         count(*) FILTER (WHERE type = 'website') AS website,
         count(*) FILTER (WHERE type = 'market') AS market,
         count(*) FILTER (WHERE type = 'linkedin') AS linkedin
    FROM signals WHERE workspace_id = $1 GROUP BY buyer_id
), firsts AS (
  SELECT DISTINCT ON (buyer_id) buyer_id, id, type, trigger, captured_at, data -> 'attribution' AS attribution
    FROM signals WHERE workspace_id = $1 ORDER BY buyer_id DESC, captured_at, id
), lasts AS (
  SELECT DISTINCT ON (buyer_id) buyer_id, id, type, trigger, captured_at
    FROM signals WHERE workspace_id = $1 ORDER BY buyer_id, captured_at DESC, id DESC
)
UPDATE buyers b
   SET signal_count_total = c.total, signal_count_website = c.website,
       signal_count_market = c.market, signal_count_linkedin = c.linkedin,
       first_signal_id = f.id, first_signal_type = f.type, first_signal_trigger = f.trigger, first_signal_at = f.captured_at,
       last_signal_id = l.id, last_signal_type = l.type, last_signal_trigger = l.trigger, last_signal_at = l.captured_at,
       attribution = f.attribution
  FROM counts c
  JOIN firsts f ON f.buyer_id = c.buyer_id
  JOIN lasts l ON l.buyer_id = c.buyer_id
 WHERE b.workspace_id = $1 AND b.id = c.buyer_id`;
