import { demoActivity, demoDirectory, demoKnowledgeBase } from './demo-data';

describe('demo data', () => {
  it('has a knowledge base without placeholder names, every record of one site', () => {
    const kb = demoKnowledgeBase();
    for (const resource of ['icps', 'personas', 'competitors', 'products', 'topics', 'target-pages', 'target-forms', 'exclusions']) {
      expect(kb.some((record) => record.resource === resource)).toBe(true);
    }
    for (const record of kb) expect(record.body.name).not.toMatch(/\d+$/);
    for (const record of kb.filter((r) => r.resource === 'target-pages' || r.resource === 'target-forms')) {
      expect(record.body.url.startsWith('www.ledgerline.io/')).toBe(true);
    }
    // The Exclusion is a company of the directory, so some activity is discarded as a customer's.
    const excluded = kb.find((r) => r.resource === 'exclusions')!.body.domain;
    expect(demoDirectory().companies.some((c) => c.domain === excluded)).toBe(true);
    expect(demoKnowledgeBase(3).length).toBe(kb.length + 20);
  });

  it('covers the nine triggers in every round of twelve activities, from people of the directory', () => {
    const activities = Array.from({ length: 120 }, (_, i) => demoActivity(i, 120, 'run'));
    expect(new Set(activities.slice(0, 12).map((a) => a.trigger)).size).toBe(9);
    const emails = new Set(demoDirectory().people.map((p) => p.email));
    const domains = new Set(demoDirectory().companies.map((c) => c.domain));
    for (const activity of activities) {
      const identity = activity.identity as { email?: string; linkedin?: string };
      if (identity.email) expect(domains.has(identity.email.split('@')[1])).toBe(true);
      else expect(identity.linkedin).toMatch(/linkedin\.com\/in\//);
    }
    // Most are people the directory knows; a few are strangers at known companies.
    const known = activities.filter((a) => emails.has((a.identity as { email?: string }).email ?? ''));
    expect(known.length).toBeGreaterThan(activities.length / 2);
    expect(new Set(activities.map((a) => JSON.stringify(a.attribution))).size).toBeGreaterThanOrEqual(5);
  });
});
