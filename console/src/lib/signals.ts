/** Reading a Signal: its trigger, a one-line summary, and whether it passes the feed's filters. */

export interface SignalLike {
  type: 'website' | 'market' | 'linkedin';
  website?: { trigger: string; url?: { raw?: string; canonical?: string }; target_page?: { name?: string } } | null;
  market?: { trigger: string; topic?: string; company_website?: string } | null;
  linkedin?: { trigger: string; url?: string; post_title?: string; company_name?: string } | null;
}

export interface SignalFilters {
  type?: string;
  trigger?: string;
}

export function signalTrigger(signal: SignalLike): string {
  return signal[signal.type]?.trigger ?? '';
}

export function signalMatches(signal: SignalLike, filters: SignalFilters): boolean {
  if (filters.type && signal.type !== filters.type) return false;
  if (filters.trigger && signalTrigger(signal) !== filters.trigger) return false;
  return true;
}

/** What the Signal was about: the page, the topic or competitor, the LinkedIn post or page. */
export function signalSummary(signal: SignalLike): string {
  if (signal.type === 'website' && signal.website) {
    const page = signal.website.target_page?.name;
    const url = signal.website.url?.raw || signal.website.url?.canonical || '';
    return page ? `${page} (${url})` : url;
  }
  if (signal.type === 'market' && signal.market) return signal.market.topic || signal.market.company_website || '';
  if (signal.type === 'linkedin' && signal.linkedin) {
    return signal.linkedin.post_title || signal.linkedin.company_name || signal.linkedin.url || '';
  }
  return '';
}

/** `visited_page` → `visited page`. */
export function humanize(name: string): string {
  return name.replace(/_/g, ' ');
}
