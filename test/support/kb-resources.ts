/** The eight knowledge-base resources as a client sees them, for table-driven tests. */
export interface KbCase {
  name: string;
  path: string;
  idParam: string;
  prefix: string;
  /** A valid create body; `n` makes short names unique. */
  valid(n: string): Record<string, string>;
  required: string[];
  optional: string[];
  computed: string[];
}

const profile = (name: string, path: string, idParam: string, prefix: string): KbCase => ({
  name,
  path,
  idParam,
  prefix,
  valid: (n) => ({ name: `${name} ${n}`, short_name: `${path}-${n}`, description: `${name} description ${n}` }),
  required: ['name', 'short_name', 'description'],
  optional: [],
  computed: [],
});

const page = (name: string, path: string, prefix: string): KbCase => ({
  name,
  path,
  idParam: 'id',
  prefix,
  valid: (n) => ({
    name: `${name} ${n}`,
    short_name: `${path}-${n}`,
    url: `https://www.example.com/${path}/${n}`,
    description: `Why ${n} matters`,
  }),
  required: ['name', 'short_name', 'url', 'description'],
  optional: [],
  computed: ['canonical_url'],
});

export const KB_CASES: KbCase[] = [
  profile('ICP', 'icps', 'icp_id', 'icp_'),
  profile('Persona', 'personas', 'persona_id', 'per_'),
  {
    name: 'Competitor',
    path: 'competitors',
    idParam: 'id',
    prefix: 'cmp_',
    valid: (n) => ({ name: `Competitor ${n}`, short_name: `competitors-${n}`, domain: `rival-${n}.com` }),
    required: ['name', 'short_name', 'domain'],
    optional: ['linkedin', 'logo', 'description'],
    computed: [],
  },
  profile('Product', 'products', 'id', 'prd_'),
  profile('Topic', 'topics', 'id', 'top_'),
  page('Target Page', 'target-pages', 'tpg_'),
  page('Target Form', 'target-forms', 'tfm_'),
  {
    name: 'Exclusion',
    path: 'exclusions',
    idParam: 'id',
    prefix: 'exc_',
    valid: (n) => ({
      name: `Excluded ${n}`,
      short_name: `exclusions-${n}`,
      domain: `excluded-${n}.com`,
      description: `Never a target ${n}`,
    }),
    required: ['name', 'short_name', 'domain', 'description'],
    optional: ['linkedin', 'logo'],
    computed: [],
  },
];

let counter = 0;
/** A short, process-unique suffix for short names. */
export function unique(): string {
  counter += 1;
  return `${process.pid.toString(36)}${counter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
