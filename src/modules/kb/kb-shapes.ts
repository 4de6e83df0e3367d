import { canonicalizeUrl } from '../../shared/domain/canonical-url';
import { kbField, Presence } from '../../shared/application/kb-fields';

/** Field lists that several resources share. */

export const profileFields = {
  name: kbField.name(),
  short_name: kbField.shortName(),
  description: kbField.description(),
};

/** Competitors and Exclusions: company information, `domain` being the matching identifier. */
export const companyFields = (description: Presence) => ({
  name: kbField.name(),
  short_name: kbField.shortName(),
  domain: kbField.domain(),
  linkedin: kbField.linkedin('clearable'),
  logo: kbField.logo('clearable'),
  description: kbField.description(description),
});

/** Target Pages and Target Forms: `url` as given, plus the read-only `canonical_url` derived from it. */
export const pageShape = {
  fields: {
    name: kbField.name(),
    short_name: kbField.shortName(),
    url: kbField.pageUrl(),
    description: kbField.description(),
  },
  computedFields: ['canonical_url'],
  derive: (values: Readonly<Record<string, string>>): Record<string, string> => {
    const canonical = values.url === undefined ? null : canonicalizeUrl(values.url);
    return canonical ? { canonical_url: canonical.canonical } : {};
  },
};
