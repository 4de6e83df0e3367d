import { KB_RESOURCES } from '../../src/modules/kb/kb-resources';
import type { KbFieldSpec } from '../../src/shared/application/kb-fields';
import type { KbResource } from '../../src/shared/application/kb-resource';

/** A knowledge-base resource as a client sees it, for table-driven tests. */
export interface KbCase {
  name: string;
  path: string;
  idParam: string;
  prefix: string;
  /** A valid create body (the required fields); `n` makes short names unique. */
  valid(n: string): Record<string, string>;
  required: string[];
  optional: string[];
  computed: string[];
}

/** A valid value of a field, by its rule. */
function sample(resource: KbResource, field: string, spec: KbFieldSpec, n: string): string {
  switch (spec.rule) {
    case 'domain':
      return `${resource.path}-${n}.com`;
    case 'linkedin':
      return `https://www.linkedin.com/company/${resource.path}-${n}`;
    case 'image_url':
      return `https://cdn.example.com/${resource.path}/${n}.png`;
    case 'page_url':
      return `https://www.example.com/${resource.path}/${n}`;
    case 'text':
      return field === 'short_name' ? `${resource.path}-${n}` : `${resource.name} ${field.replace(/_/g, ' ')} ${n}`;
  }
}

function kbCase(resource: KbResource): KbCase {
  const fields = Object.entries(resource.fields);
  const required = fields.filter(([, spec]) => spec.presence === 'required');
  return {
    name: resource.name,
    path: resource.path,
    idParam: resource.idParam,
    prefix: resource.idPrefix,
    valid: (n) => Object.fromEntries(required.map(([field, spec]) => [field, sample(resource, field, spec, n)])),
    required: required.map(([field]) => field),
    optional: fields.filter(([, spec]) => spec.presence !== 'required').map(([field]) => field),
    computed: [...resource.computedFields],
  };
}

/**
 * Every resource the API serves, read from the list the API is built from, so the table-driven
 * suites cover a new resource without being told. What each resource must be (paths, prefixes,
 * required fields) is pinned in src/modules/kb/kb-resources.spec.ts.
 */
export const KB_CASES: KbCase[] = KB_RESOURCES.map(kbCase);

let counter = 0;
/** A short, process-unique suffix for short names. */
export function unique(): string {
  counter += 1;
  return `${process.pid.toString(36)}${counter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
