import { ID_PREFIXES } from '../../shared/domain/ids';
import { KB_RESOURCES, kbResourceAt } from './kb-resources';

/**
 * The table-driven tests read the resources from KB_RESOURCES; this pins what the spec and
 * DESIGN §1 say each one is, so that a declaration cannot drift from it unnoticed.
 */
describe('KB_RESOURCES', () => {
  it('serves the resources of the spec, each at its path, with its id parameter and id prefix', () => {
    expect(KB_RESOURCES.map(({ name, path, idParam, idPrefix }) => ({ name, path, idParam, idPrefix }))).toEqual([
      { name: 'ICP', path: 'icps', idParam: 'icp_id', idPrefix: 'icp_' },
      { name: 'Persona', path: 'personas', idParam: 'persona_id', idPrefix: 'per_' },
      { name: 'Competitor', path: 'competitors', idParam: 'id', idPrefix: 'cmp_' },
      { name: 'Product', path: 'products', idParam: 'id', idPrefix: 'prd_' },
      { name: 'Topic', path: 'topics', idParam: 'id', idPrefix: 'top_' },
      { name: 'Target Page', path: 'target-pages', idParam: 'id', idPrefix: 'tpg_' },
      { name: 'Target Form', path: 'target-forms', idParam: 'id', idPrefix: 'tfm_' },
      { name: 'Exclusion', path: 'exclusions', idParam: 'id', idPrefix: 'exc_' },
    ]);
  });

  it('declares the fields of the spec, in response order, with their presence rules, and the computed ones', () => {
    const profile = { name: 'required', short_name: 'required', description: 'required' };
    const page = { name: 'required', short_name: 'required', url: 'required', description: 'required' };
    const company = (description: string) => ({
      name: 'required',
      short_name: 'required',
      domain: 'required',
      linkedin: 'clearable',
      logo: 'clearable',
      description,
    });
    const declared = Object.fromEntries(
      KB_RESOURCES.map((resource) => [
        resource.path,
        {
          fields: Object.entries(resource.fields).map(([field, spec]) => [field, spec.presence]),
          computed: resource.computedFields,
        },
      ]),
    );
    const expected = (fields: Record<string, string>, computed: string[] = []) => ({ fields: Object.entries(fields), computed });
    expect(declared).toEqual({
      icps: expected(profile),
      personas: expected(profile),
      competitors: expected(company('optional')),
      products: expected(profile),
      topics: expected(profile),
      'target-pages': expected(page, ['canonical_url']),
      'target-forms': expected(page, ['canonical_url']),
      exclusions: expected(company('required')),
    });
  });

  it('gives each resource its own path, id prefix, entity and service class', () => {
    for (const key of ['path', 'idPrefix', 'entity', 'service'] as const) {
      expect({ key, distinct: new Set(KB_RESOURCES.map((resource) => resource[key])).size }).toEqual({
        key,
        distinct: KB_RESOURCES.length,
      });
    }
  });

  it('uses id prefixes no other kind of id has', () => {
    const others = new Set<string>(Object.values(ID_PREFIXES));
    expect(KB_RESOURCES.filter((resource) => others.has(resource.idPrefix))).toEqual([]);
    for (const resource of KB_RESOURCES) expect(resource.idPrefix).toMatch(/^[a-z]{3}_$/);
  });

  it('finds a resource by its path, and refuses an unknown one', () => {
    expect(kbResourceAt('target-pages').name).toBe('Target Page');
    expect(() => kbResourceAt('target-lists')).toThrow(/target-lists/);
  });
});
