/**
 * Set-based SQL of the bulk generator. Ids follow the service's layout (milliseconds since
 * 2024-01-01 in the high bits, 22 random low bits); a rare collision is skipped by
 * `ON CONFLICT DO NOTHING` and topped up by the caller.
 */

const ID_EPOCH_MS = Date.UTC(2024, 0, 1);
const idFrom = (timestamp: string) =>
  `(((floor(extract(epoch FROM ${timestamp}) * 1000))::bigint - ${ID_EPOCH_MS}) << 22) | floor(random() * 4194304)::bigint`;
const pick = (array: string) => `(${array})[1 + floor(random() * array_length(${array}, 1))::int]`;

/*
 * Parameters: $1 workspace, $2 how many, $3 run tag, $4 days back, $5 first names, $6 last names,
 * $7 titles, $8 company stems, $9 company suffixes, $10 industries, $11 countries, $12 active ICP
 * ids, $13 active Persona ids. A third of the rows are cut to the hour, so many share a timestamp.
 */
export const INSERT_BUYERS = `
INSERT INTO buyers (id, workspace_id, person_key, contact_info, company_info, hems, attribution,
                    is_icp, icp_id, icp_name, icp_reasoning, is_persona, persona_id, persona_name, persona_reasoning,
                    created_at, updated_at)
SELECT ${idFrom('p.created_at')}, $1, 'seed:' || $3 || ':' || p.g,
       json_build_object(
         'name', json_build_object('first', p.first, 'middle', '', 'last', p.last),
         'role', json_build_object('title', p.title, 'function', p.function, 'seniority', p.seniority, 'start_date', to_char(p.created_at - interval '400 days', 'YYYY-MM-DD')),
         'email', json_build_object('work', p.email, 'is_valid', true),
         'phone', json_build_object('mobile', '', 'is_valid', false),
         'social', json_build_object('linkedin', 'https://www.linkedin.com/in/' || lower(p.first || '-' || p.last) || '-' || p.g, 'twitter', '', 'github', '', 'facebook', '',
                                     'linkedin_followers', floor(random() * 5000)::int, 'is_linkedin_valid', true),
         'location', json_build_object('city', '', 'state', '', 'country', p.country, 'postal_code', ''),
         'photo_url', ''),
       json_build_object(
         'name', p.company, 'website', 'https://' || p.domain, 'logo', 'https://' || p.domain || '/logo.png',
         'company_type', (ARRAY['private', 'public', 'nonprofit'])[1 + p.g % 3],
         'industries', json_build_array(p.industry),
         'employee_count', 10 + (p.company_n * 37) % 5000, 'founded_year', 1990 + p.company_n % 34,
         'annual_revenue', ((p.company_n * 7919) % 500) * 1000000, 'total_funding', ((p.company_n * 104729) % 200) * 1000000,
         'social', json_build_object('linkedin', 'https://www.linkedin.com/company/' || replace(p.domain, '.', '-'), 'twitter', '', 'facebook', ''),
         'location', json_build_object('street_address', '', 'city', '', 'state', '', 'postal_code', '', 'country', p.country),
         'latest_funding_stage', (ARRAY['Seed', 'Series A', 'Series B', 'Series C', ''])[1 + p.company_n % 5],
         'latest_funding_round_date', CASE WHEN p.company_n % 5 = 4 THEN '' ELSE to_char(p.created_at - interval '200 days', 'YYYY-MM-DD') END),
       json_build_array(json_build_object('type', 'sha256', 'value', encode(sha256(convert_to(p.email, 'UTF8')), 'hex')),
                        json_build_object('type', 'md5', 'value', md5(p.email))),
       json_build_object('type', '', 'source', '', 'source_name', '', 'source_logo', ''),
       p.icp_id IS NOT NULL, p.icp_id, CASE WHEN p.icp_id IS NULL THEN '' ELSE 'Seeded ICP' END,
       CASE WHEN p.icp_id IS NULL THEN '' ELSE 'Matched: industry ' || p.industry || '; country ' || p.country || '.' END,
       p.persona_id IS NOT NULL, p.persona_id, CASE WHEN p.persona_id IS NULL THEN '' ELSE 'Seeded Persona' END,
       CASE WHEN p.persona_id IS NULL THEN '' ELSE 'Matched: title ' || p.title || '.' END,
       p.created_at, p.created_at
  FROM (
    SELECT q.*, lower(q.first || '.' || q.last || '.' || q.g || '@' || q.domain) AS email
      FROM (
        SELECT g, ${pick('$5::text[]')} AS first, ${pick('$6::text[]')} AS last, ${pick('$7::text[]')} AS title,
               (ARRAY['Finance', 'Engineering', 'Sales', 'Marketing', 'Operations'])[1 + g % 5] AS function,
               (ARRAY['C-level', 'VP', 'Director', 'Manager', 'Individual contributor'])[1 + (g / 5) % 5] AS seniority,
               c.n AS company_n, c.stem || ' ' || c.suffix AS company,
               lower(c.stem || c.suffix || c.n) || '.com' AS domain,
               ${pick('$10::text[]')} AS industry, ${pick('$11::text[]')} AS country,
               CASE WHEN cardinality($12::bigint[]) > 0 AND random() < 0.3 THEN ${pick('$12::bigint[]')} END AS icp_id,
               CASE WHEN cardinality($13::bigint[]) > 0 AND random() < 0.3 THEN ${pick('$13::bigint[]')} END AS persona_id,
               date_trunc(CASE WHEN g % 3 = 0 THEN 'hour' ELSE 'second' END, now() - random() * ($4 || ' days')::interval) AS created_at
          FROM generate_series(1, $2::int) AS g
          CROSS JOIN LATERAL (
            SELECT 1 + floor(random() * 2000)::int + g * 0 AS n,
                   ${pick('$8::text[]')} AS stem, ${pick('$9::text[]')} AS suffix
          ) c
      ) q
  ) p
ON CONFLICT DO NOTHING`;

/** The workspace's ($1) Buyers numbered 1..n, so a random Buyer is a hash-join away. */
export const CREATE_BUYER_POOL = `
CREATE TEMPORARY TABLE seed_buyer_pool AS
SELECT id AS buyer_id, row_number() OVER () AS n FROM buyers WHERE workspace_id = $1`;

/*
 * Parameters: $1 workspace, $2 how many, $3 days back, $4 page paths, $5 topics, $6 sources;
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
           'url', json_build_object('raw', 'https://www.example.com' || s.path || '?utm_source=' || s.source || '&utm_medium=cpc',
                                    'canonical', 'www.example.com' || s.path, 'domain', 'www.example.com', 'path', s.path),
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
                                              'company_website', 'https://www.rival' || (s.g % 20) || '.com')
         ELSE json_build_object('trigger', s.trigger, 'attribution', s.attribution, 'source', 'linkedin',
                                'url', 'https://www.linkedin.com/feed/update/urn:li:activity:' || s.g,
                                'comment', CASE WHEN s.trigger = 'commented_post' THEN 'Interesting take on ' || s.topic ELSE '' END,
                                'reaction_type', CASE WHEN s.trigger = 'reacted_post' THEN 'like' ELSE '' END,
                                'company_name', 'Rival ' || (s.g % 20), 'post_title', s.topic)
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
