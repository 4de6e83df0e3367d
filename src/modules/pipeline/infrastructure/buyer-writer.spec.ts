import type { ActivityEntity, ActivityEvaluation } from '../../activities/activity.entity';
import { companyInfoTemplate, contactInfoTemplate } from '../../buyers/buyer-shape';
import { BuyerWriter, NewSignal } from './buyer-writer';
import { newLockedBuyer } from './locked-buyer.fixtures';

const MATCHED: NewSignal['matched'] = { resource: 'target_page', id: 'tpg_1', name: 'Pricing', short_name: 'pricing', description: '' };

function evaluation(icp: boolean): ActivityEvaluation {
  return {
    icp: { matched: icp, id: icp ? '5' : null, name: icp ? 'Fintech' : '', reasoning: icp ? 'industry matched' : 'industry failed' },
    persona: { matched: false, id: null, name: '', reasoning: 'no title' },
  };
}

function signal(
  id: string,
  at: string,
  options: { type?: ActivityEntity['type']; title?: string; icp?: boolean; source?: string } = {},
): NewSignal {
  const contact = contactInfoTemplate();
  contact.role.title = options.title ?? '';
  const activity = {
    id: `9${id}`,
    type: options.type ?? 'website',
    trigger: options.type === 'market' ? 'researched_topic' : 'visited_page',
    occurred_at: new Date(at),
    payload: { attribution: { source: options.source ?? '' } },
    contact_info: contact,
    company_info: companyInfoTemplate(),
    identity: { email: 'ann@acme.com', hems: [{ type: 'md5', value: 'x' }] },
    evaluation: evaluation(options.icp ?? false),
  } as unknown as ActivityEntity;
  return { id, buyerId: '1', activity, data: {}, matched: MATCHED };
}

describe('BuyerWriter.fold', () => {
  it('counts each Signal by type and keeps the earliest and latest by captured_at', () => {
    const fold = BuyerWriter.startFold(newLockedBuyer());
    BuyerWriter.fold(fold, signal('10', '2026-01-01T00:10:00Z', { source: 'google' }));
    BuyerWriter.fold(fold, signal('20', '2026-01-01T00:30:00Z', { type: 'market', icp: true }));
    expect(fold.buyer).toMatchObject({ signal_count_total: 2, signal_count_website: 1, signal_count_market: 1, signal_count_linkedin: 0 });
    expect([fold.buyer.first_signal_id, fold.buyer.last_signal_id]).toEqual(['10', '20']);
    expect(fold.first).toEqual({ type: 'website', trigger: 'visited_page', attribution: expect.objectContaining({ source: 'google' }) });
    expect(fold.last).toEqual({ type: 'market', trigger: 'researched_topic' });
    // The Buyer is described by the latest evaluation folded in.
    expect(fold.evaluation!.icp.matched).toBe(true);
  });

  it("takes a later activity's values, but lets an older one only fill in what the Buyer does not know", () => {
    const stored = { ...newLockedBuyer(), signal_count_total: 1, signal_count_website: 1 };
    stored.contact_info = { ...contactInfoTemplate(), role: { ...contactInfoTemplate().role, title: 'CFO' } };
    Object.assign(stored, { first_signal_id: '5', first_signal_at: new Date('2026-03-01T00:00:00Z') });
    Object.assign(stored, { last_signal_id: '5', last_signal_at: new Date('2026-03-01T00:00:00Z') });
    const older = BuyerWriter.startFold(stored);
    const intern = signal('4', '2026-02-01T00:00:00Z', { title: 'Intern' });
    intern.activity.contact_info!.role.function = 'Finance';
    BuyerWriter.fold(older, intern);
    expect(older.buyer.contact_info.role).toMatchObject({ title: 'CFO', function: 'Finance' });
    const newer = BuyerWriter.startFold(stored);
    BuyerWriter.fold(newer, signal('6', '2026-04-01T00:00:00Z', { title: 'CEO' }));
    expect(newer.buyer.contact_info.role.title).toBe('CEO');
  });

  it('leaves first and last unchanged (null) when a Signal falls between them', () => {
    const stored = { ...newLockedBuyer(), signal_count_total: 2, signal_count_website: 2 };
    Object.assign(stored, {
      first_signal_id: '1',
      first_signal_at: new Date('2026-01-01T00:00:00Z'),
      last_signal_id: '3',
      last_signal_at: new Date('2026-01-02T00:00:00Z'),
    });
    const fold = BuyerWriter.startFold(stored);
    BuyerWriter.fold(fold, signal('2', '2026-01-01T12:00:00Z'));
    expect([fold.first, fold.last]).toEqual([null, null]);
    expect(fold.buyer.signal_count_total).toBe(3);
    // The stored row the fold started from is not changed.
    expect(stored.signal_count_total).toBe(2);
  });

  it('breaks a captured_at tie by Signal id, and merges what is known, a later value over an earlier one', () => {
    const fold = BuyerWriter.startFold(newLockedBuyer());
    BuyerWriter.fold(fold, signal('7', '2026-01-01T00:00:00Z', { title: 'CFO' }));
    BuyerWriter.fold(fold, signal('8', '2026-01-01T00:00:00Z'));
    expect([fold.buyer.first_signal_id, fold.buyer.last_signal_id]).toEqual(['7', '8']);
    expect(fold.buyer.contact_info.role.title).toBe('CFO');
    expect(fold.buyer.hems).toEqual([{ type: 'md5', value: 'x' }]);
  });
});
