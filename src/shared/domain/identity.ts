import { createHash } from 'node:crypto';

/**
 * Identity normalisation for Resolve. A person is keyed by their lowercased email when one is
 * known (given, or found in the directory from a LinkedIn profile or hashed email), else by their
 * LinkedIn profile, else by the hashed email itself.
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;
const LINKEDIN_PROFILE = /^(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/in\/([^/?#\s]+)\/?(?:[?#].*)?$/i;
const HEM_LENGTHS = { sha256: 64, sha1: 40, md5: 32 } as const;
export type HemType = keyof typeof HEM_LENGTHS;

/** A hashed email identifier, as Buyers show it (`hems[]`). */
export interface Hem {
  type: string;
  value: string;
}

export function normalizeEmail(value: string | undefined): string | null {
  const email = value?.trim().toLowerCase() ?? '';
  return EMAIL.test(email) && email.length <= 320 ? email : null;
}

/** `linkedin.com/in/<slug>` (lowercase slug), or null when it is not a profile URL. */
export function normalizeLinkedinProfile(value: string | undefined): string | null {
  const match = LINKEDIN_PROFILE.exec(value?.trim() ?? '');
  if (!match) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(match[1]).toLowerCase();
  } catch {
    return null;
  }
  return slug ? `linkedin.com/in/${slug}` : null;
}

export function normalizeHem(hem: { type: string; value: string } | undefined): Hem | null {
  if (!hem || !(hem.type in HEM_LENGTHS)) return null;
  const value = hem.value.trim().toLowerCase();
  const length = HEM_LENGTHS[hem.type as HemType];
  return new RegExp(`^[0-9a-f]{${length}}$`).test(value) ? { type: hem.type, value } : null;
}

/** sha256, sha1 and md5 of the lowercased email, in that order. */
export function hemsOf(email: string): Hem[] {
  return (['sha256', 'sha1', 'md5'] as const).map((type) => ({
    type,
    value: createHash(type).update(email.toLowerCase(), 'utf8').digest('hex'),
  }));
}

export interface ResolvedIdentity {
  personKey: string;
  email: string;
  /** `https://www.linkedin.com/in/<slug>` or `""`. */
  linkedin: string;
  hems: Hem[];
}

/** The identity after directory look-ups; null when nothing identifies a person. */
export function resolveIdentity(input: {
  email: string | null;
  linkedin: string | null;
  hem: Hem | null;
  /** Email the directory knows for the LinkedIn profile or hashed email, if any. */
  directoryEmail: string | null;
}): ResolvedIdentity | null {
  const email = input.email ?? input.directoryEmail;
  const linkedin = input.linkedin ? `https://www.${input.linkedin}` : '';
  if (email) return { personKey: `email:${email}`, email, linkedin, hems: hemsOf(email) };
  if (input.linkedin) return { personKey: `linkedin:${input.linkedin}`, email: '', linkedin, hems: input.hem ? [input.hem] : [] };
  if (input.hem) return { personKey: `${input.hem.type}:${input.hem.value}`, email: '', linkedin, hems: [input.hem] };
  return null;
}

/** Lowercase host of a website or URL (`www.` dropped), or `""`. */
export function domainOf(value: string | undefined): string {
  const text = value?.trim().toLowerCase() ?? '';
  if (!text) return '';
  const host = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').split(/[/?#:]/, 1)[0];
  return host.replace(/^www\./, '').replace(/\.$/, '');
}

/** True when `domain` is `base` or one of its subdomains. */
export function isSameOrSubdomain(domain: string, base: string): boolean {
  return domain !== '' && base !== '' && (domain === base || domain.endsWith(`.${base}`));
}
