/**
 * The knowledge base's eight resources, declared once each: the console's one list and one form
 * are built from these (fields, labels, input kinds, which are required), following the service's
 * resource declarations (src/modules/kb/<resource>/…resource.ts).
 */

export type KbPath = 'icps' | 'personas' | 'competitors' | 'products' | 'topics' | 'target-pages' | 'target-forms' | 'exclusions';

export type InputKind = 'text' | 'textarea' | 'url' | 'domain';

export interface KbFieldDecl {
  name: string;
  label: string;
  input: InputKind;
  /** Must be given on create. */
  required: boolean;
  /** May be sent empty to clear it. */
  clearable?: boolean;
  maxLength: number;
  hint?: string;
}

export interface KbResourceDecl {
  path: KbPath;
  /** Plural, for the navigation and the list heading. */
  title: string;
  /** Singular, for buttons and form headings. */
  singular: string;
  fields: readonly KbFieldDecl[];
  /** Fields the service computes: shown in the list, never edited. */
  computed: readonly string[];
  /** ICPs and Personas: the description is read as criteria and can be simulated. */
  profile: boolean;
}

const name: KbFieldDecl = { name: 'name', label: 'Name', input: 'text', required: true, maxLength: 200 };
const shortName: KbFieldDecl = {
  name: 'short_name',
  label: 'Short name',
  input: 'text',
  required: true,
  maxLength: 64,
  hint: 'Unique within the resource',
};
const description = (required: boolean): KbFieldDecl => ({
  name: 'description',
  label: 'Description',
  input: 'textarea',
  required,
  maxLength: 10_000,
});

const profileFields = [name, shortName, description(true)];
const companyFields = (descriptionRequired: boolean): KbFieldDecl[] => [
  name,
  shortName,
  { name: 'domain', label: 'Domain', input: 'domain', required: true, maxLength: 253, hint: 'A bare domain such as example.com' },
  {
    name: 'linkedin',
    label: 'LinkedIn page',
    input: 'url',
    required: false,
    clearable: true,
    maxLength: 2048,
    hint: 'https://www.linkedin.com/company/…',
  },
  { name: 'logo', label: 'Logo URL', input: 'url', required: false, clearable: true, maxLength: 2048 },
  description(descriptionRequired),
];
const pageFields = [
  name,
  shortName,
  {
    name: 'url',
    label: 'URL',
    input: 'text',
    required: true,
    maxLength: 2048,
    hint: 'An http(s) URL, or host and path such as example.com/pricing',
  },
  description(true),
] satisfies KbFieldDecl[];

const declare = (
  path: KbPath,
  title: string,
  singular: string,
  fields: readonly KbFieldDecl[],
  extra: Partial<Pick<KbResourceDecl, 'computed' | 'profile'>> = {},
): KbResourceDecl => ({ path, title, singular, fields, computed: extra.computed ?? [], profile: extra.profile ?? false });

export const KB_RESOURCES: readonly KbResourceDecl[] = [
  declare('icps', 'ICPs', 'ICP', profileFields, { profile: true }),
  declare('personas', 'Personas', 'Persona', profileFields, { profile: true }),
  declare('competitors', 'Competitors', 'Competitor', companyFields(false)),
  declare('products', 'Products', 'Product', profileFields),
  declare('topics', 'Topics', 'Topic', profileFields),
  declare('target-pages', 'Target Pages', 'Target Page', pageFields, { computed: ['canonical_url'] }),
  declare('target-forms', 'Target Forms', 'Target Form', pageFields, { computed: ['canonical_url'] }),
  declare('exclusions', 'Exclusions', 'Exclusion', companyFields(true)),
];

export function kbResource(path: string | undefined): KbResourceDecl | undefined {
  return KB_RESOURCES.find((resource) => resource.path === path);
}

export type FormValues = Record<string, string>;

/** The form's starting values: a record's, or empty ones. */
export function initialValues(resource: KbResourceDecl, record?: Readonly<Record<string, unknown>>): FormValues {
  return Object.fromEntries(
    resource.fields.map((field) => {
      const value = record?.[field.name];
      return [field.name, typeof value === 'string' ? value : ''];
    }),
  );
}

/**
 * The request body: on create every filled field (empty optional ones left out); on edit only the
 * fields that changed (an emptied clearable field is sent as `""`, which clears it).
 */
export function bodyFor(resource: KbResourceDecl, values: FormValues, original?: FormValues): Record<string, string> {
  const body: Record<string, string> = {};
  for (const field of resource.fields) {
    const value = values[field.name] ?? '';
    if (original) {
      if (value !== (original[field.name] ?? '')) body[field.name] = value;
    } else if (value !== '' || field.required) {
      body[field.name] = value;
    }
  }
  return body;
}
