import { formatTimestamp } from '../../../shared/domain/clock';
import { canonicalizeUrl } from '../../../shared/domain/canonical-url';
import type { ActivityInput } from '../../activities/activity-input';
import { conform } from '../../buyers/buyer-shape';
import type { SignalTrigger } from '../../signals/signal-types';

/** The KB record a Signal matched, copied into it so later KB edits never rewrite history. */
export interface MatchedRecord {
  resource: 'target_page' | 'target_form' | 'topic' | 'product' | 'competitor';
  /** Public id (`tpg_…`, `tfm_…`, `top_…`, `prd_…`, `cmp_…`). */
  id: string;
  name: string;
  short_name: string;
  description: string;
}

const attributionTemplate = () => ({ type: '', source: '', source_name: '', source_logo: '' });
const sessionTemplate = () => ({ id: '', started_at: '', ended_at: '', duration_secs: 0 });
const deviceTemplate = () => ({ browser: '', browser_version: '', os: '', os_version: '', device_type: '', language: '' });
const locationTemplate = () => ({
  ip: '',
  city: '',
  state: '',
  country: '',
  country_code: '',
  postal_code: '',
  timezone: '',
  latitude: 0,
  longitude: 0,
});
const pageTemplate = () => ({
  visited_at: '',
  first_visited_at: '',
  last_visited_at: '',
  time_spent_secs: 0,
  visit_count: 0,
  total_time_spent_secs: 0,
});
const linkedinTemplate = () => ({ source: '', url: '', comment: '', reaction_type: '', company_name: '', post_title: '' });

/**
 * The object of a Signal's type, complete with every field of the spec, built from the activity
 * and the matched record. A website Signal's `target_page` is the matched Target Page, or for form
 * triggers the matched Target Form (the spec has one place for the targeted page).
 */
export function buildSignalData(activity: ActivityInput, matched: MatchedRecord): Record<string, unknown> {
  const trigger: SignalTrigger = activity.trigger;
  const attribution = conform(attributionTemplate(), activity.attribution);
  if (activity.type === 'website') {
    const website = activity.website!;
    const url = canonicalizeUrl(website.url)!;
    const occurred = formatTimestamp(new Date(activity.occurred_at));
    const location = conform(locationTemplate(), website.location);
    const page = conform(pageTemplate(), website.page);
    return {
      trigger,
      attribution,
      url: { raw: website.url, canonical: url.canonical, domain: url.domain, path: url.path },
      utm: url.utm,
      click_ids: url.clickIds,
      target_page: { id: matched.id, name: matched.name, short_name: matched.short_name, description: matched.description },
      session: conform(sessionTemplate(), website.session),
      device: conform(deviceTemplate(), website.device),
      location: { ...location, ip: location.ip || activity.identity.ip || '' },
      page: { ...page, visited_at: page.visited_at || occurred },
    };
  }
  if (activity.type === 'market') {
    const market = activity.market!;
    // Topics and Products name what was researched or explored; a Competitor evaluation keeps the topic given.
    const topic = matched.resource === 'topic' || matched.resource === 'product' ? matched.name : market.topic;
    return { trigger, attribution, topic, company_website: market.company_website };
  }
  const linkedin = conform(linkedinTemplate(), activity.linkedin);
  return { trigger, attribution, ...linkedin, company_name: matched.name || linkedin.company_name };
}
