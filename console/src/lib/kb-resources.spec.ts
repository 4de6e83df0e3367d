import { bodyFor, initialValues, KB_RESOURCES, kbResource } from './kb-resources';

describe('knowledge-base declarations', () => {
  it('declares the eight resources once each', () => {
    expect(KB_RESOURCES.map((resource) => resource.path)).toEqual([
      'icps',
      'personas',
      'competitors',
      'products',
      'topics',
      'target-pages',
      'target-forms',
      'exclusions',
    ]);
    for (const resource of KB_RESOURCES)
      expect(resource.fields.map((field) => field.name)).toEqual(expect.arrayContaining(['name', 'short_name']));
  });

  it('marks only ICPs and Personas as profiles', () => {
    expect(KB_RESOURCES.filter((resource) => resource.profile).map((resource) => resource.path)).toEqual(['icps', 'personas']);
  });

  it('sends filled fields on create and only changed ones on edit', () => {
    const competitors = kbResource('competitors')!;
    const values = { ...initialValues(competitors), name: 'Acme', short_name: 'acme', domain: 'acme.com' };
    expect(bodyFor(competitors, values)).toEqual({ name: 'Acme', short_name: 'acme', domain: 'acme.com' });
    const original = initialValues(competitors, {
      name: 'Acme',
      short_name: 'acme',
      domain: 'acme.com',
      linkedin: 'https://www.linkedin.com/company/acme',
    });
    expect(bodyFor(competitors, { ...original, linkedin: '', name: 'Acme Inc' }, original)).toEqual({ linkedin: '', name: 'Acme Inc' });
  });

  it('sends required fields on create even when empty, so the API names them', () => {
    expect(bodyFor(kbResource('icps')!, initialValues(kbResource('icps')!))).toEqual({ name: '', short_name: '', description: '' });
  });
});
