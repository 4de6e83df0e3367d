/** Value rules for the company-information fields of Competitors and Exclusions. */

const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const ALPHABETIC_TLD = /^[a-z]{2,63}$/;
export const MAX_DOMAIN_LENGTH = 253;

/**
 * A bare host name: labels of letters, digits and hyphens, at least one dot, an alphabetic TLD.
 * No scheme, path, port or spaces. Returns the stored (lowercased) form, or null.
 */
export function normalizeDomain(input: string): string | null {
  const domain = input.toLowerCase();
  if (domain.length > MAX_DOMAIN_LENGTH) return null;
  const labels = domain.split('.');
  if (labels.length < 2) return null;
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) return null;
  return ALPHABETIC_TLD.test(labels[labels.length - 1]) ? domain : null;
}

const LINKEDIN_COMPANY = /^(?:https?:\/\/)?(?:www\.)?linkedin\.com\/company\/[a-z0-9][a-z0-9._~%-]*\/?$/i;

/** `https://www.linkedin.com/company/<slug>`; scheme, `www.` and trailing slash optional. */
export function isLinkedinCompanyUrl(input: string): boolean {
  return LINKEDIN_COMPANY.test(input);
}

/** An absolute `http`/`https` URL with a host. */
export function isHttpUrl(input: string): boolean {
  if (!/^https?:\/\//i.test(input) || /\s/.test(input)) return false;
  try {
    const url = new URL(input);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0 && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
