import { signalMatches, signalSummary, signalTrigger, type SignalLike } from './signals';

const visit: SignalLike = {
  type: 'website',
  website: { trigger: 'visited_page', url: { raw: 'https://example.com/pricing' }, target_page: { name: 'Pricing' } },
};
const topic: SignalLike = { type: 'market', market: { trigger: 'researched_topic', topic: 'CRM' } };

describe('signals', () => {
  it('reads the trigger and a summary', () => {
    expect(signalTrigger(visit)).toBe('visited_page');
    expect(signalSummary(visit)).toBe('Pricing (https://example.com/pricing)');
    expect(signalSummary(topic)).toBe('CRM');
  });

  it('passes the feed filters', () => {
    expect(signalMatches(visit, {})).toBe(true);
    expect(signalMatches(visit, { type: 'website' })).toBe(true);
    expect(signalMatches(visit, { type: 'market' })).toBe(false);
    expect(signalMatches(visit, { type: 'website', trigger: 'filled_form' })).toBe(false);
    expect(signalMatches(topic, { type: 'market', trigger: 'researched_topic' })).toBe(true);
  });
});
