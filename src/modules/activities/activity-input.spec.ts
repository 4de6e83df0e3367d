import { AppError } from '../../shared/application/app-error';
import { validateActivityBatch } from './activity-input';

const website = (over: Record<string, unknown> = {}) => ({
  type: 'website',
  trigger: 'visited_page',
  occurred_at: '2026-11-20T10:00:00Z',
  identity: { email: 'ana@example.com' },
  website: { url: 'https://example.com/pricing' },
  ...over,
});

function param(body: unknown): string | undefined {
  try {
    validateActivityBatch(body);
  } catch (error) {
    if (error instanceof AppError) {
      expect(error.code).toBe('validation_error');
      return error.param;
    }
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('validateActivityBatch', () => {
  it('accepts one activity of each type and normalises occurred_at', () => {
    const out = validateActivityBatch({
      activities: [
        website({ external_id: ' ext-1 ', attribution: { source: 'google' } }),
        {
          type: 'market',
          trigger: 'researched_topic',
          occurred_at: '2026-11-20T10:00:00.250Z',
          identity: { hem: { type: 'sha256', value: 'a'.repeat(64) } },
          market: { topic: 'Intent data' },
        },
        {
          type: 'linkedin',
          trigger: 'followed_page',
          occurred_at: '2026-11-20T10:00:00Z',
          identity: { linkedin: 'https://www.linkedin.com/in/ana' },
          linkedin: { url: 'https://www.linkedin.com/company/rival' },
        },
      ],
    });
    expect(out).toHaveLength(3);
    expect(out[0]).toMatchObject({ external_id: 'ext-1', occurred_at: '2026-11-20T10:00:00.000Z', attribution: { source: 'google' } });
    // Fractional seconds are accepted and dropped: the API shows timestamps to the second.
    expect(out[1].occurred_at).toBe('2026-11-20T10:00:00.000Z');
    expect(out[2].linkedin).toEqual({ url: 'https://www.linkedin.com/company/rival' });
  });

  it.each([
    [null, 'body'],
    [[], 'body'],
    [{}, 'activities'],
    [{ activities: [] }, 'activities'],
    [{ activities: 'x' }, 'activities'],
    [{ activities: Array.from({ length: 1001 }, () => website()) }, 'activities'],
    [{ activities: [website()], extra: 1 }, 'extra'],
    [{ activities: [website(), 'nope'] }, 'activities[1]'],
    [{ activities: [website(), website({ colour: 'red' })] }, 'activities[1].colour'],
    [{ activities: [website({ type: 'email' })] }, 'activities[0].type'],
    [{ activities: [website({ type: undefined })] }, 'activities[0].type'],
    [{ activities: [website({ trigger: 'researched_topic' })] }, 'activities[0].trigger'],
    [{ activities: [website({ occurred_at: '2026-11-20' })] }, 'activities[0].occurred_at'],
    [{ activities: [website({ occurred_at: '2026-02-30T10:00:00Z' })] }, 'activities[0].occurred_at'],
    [{ activities: [website({ occurred_at: 1763632800 })] }, 'activities[0].occurred_at'],
    [{ activities: [website({ occurred_at: '2999-01-01T00:00:00Z' })] }, 'activities[0].occurred_at'],
    [{ activities: [website({ identity: {} })] }, 'activities[0].identity'],
    [{ activities: [website({ identity: { ip: '1.2.3.4' } })] }, 'activities[0].identity'],
    [{ activities: [website({ identity: { email: 42 } })] }, 'activities[0].identity.email'],
    [{ activities: [website({ identity: { hem: { type: 'sha512', value: 'x' } } })] }, 'activities[0].identity.hem.type'],
    [{ activities: [website({ identity: 'ana@example.com' })] }, 'activities[0].identity'],
    [{ activities: [website({ website: undefined })] }, 'activities[0].website'],
    [{ activities: [website({ website: { url: 'ftp://x.com' } })] }, 'activities[0].website.url'],
    [{ activities: [website({ website: { url: 'https://x.com', cookies: 'y' } })] }, 'activities[0].website.cookies'],
    [{ activities: [website({ market: { topic: 'x' } })] }, 'activities[0].market'],
    [{ activities: [website({ contact: 'Ana' })] }, 'activities[0].contact'],
    [{ activities: [website({ attribution: { source: 3 } })] }, 'activities[0].attribution.source'],
    [{ activities: [website({ external_id: '' })] }, 'activities[0].external_id'],
    [{ activities: [website({ external_id: 'x'.repeat(201) })] }, 'activities[0].external_id'],
    [
      { activities: [{ ...website(), type: 'market', trigger: 'researched_topic', website: undefined, market: {} }] },
      'activities[0].market.topic',
    ],
    [
      { activities: [{ ...website(), type: 'market', trigger: 'evaluated_competitor', website: undefined, market: { topic: 'x' } }] },
      'activities[0].market.company_website',
    ],
    [
      { activities: [{ ...website(), type: 'linkedin', trigger: 'reacted_post', website: undefined, linkedin: { comment: 'hi' } }] },
      'activities[0].linkedin',
    ],
    [{ activities: [website({ identity: { email: 'a\u0000b@example.com' } })] }, 'activities[0].identity.email'],
  ])('rejects %j with param %s', (body, expected) => {
    expect(param(body)).toBe(expected);
  });

  it('rejects prototype keys as unknown fields', () => {
    expect(param(JSON.parse('{"activities":[{"__proto__":{"x":1},"type":"website"}]}'))).toBe('activities[0].__proto__');
  });
});

describe('occurred_at in the future', () => {
  const at = (occurred_at: string) => ({ activities: [website({ occurred_at })] });
  const now = new Date('2026-11-20T10:00:00Z');

  it('accepts up to 24 hours ahead of the receiving clock, for clocks that run ahead', () => {
    expect(validateActivityBatch(at('2026-11-21T10:00:00Z'), now)[0].occurred_at).toBe('2026-11-21T10:00:00.000Z');
  });

  it('refuses a time further ahead, naming the field', () => {
    expect(() => validateActivityBatch(at('2026-11-21T10:00:01Z'), now)).toThrow(
      expect.objectContaining({ param: 'activities[0].occurred_at', message: expect.stringContaining('24 hours in the future') }),
    );
  });
});
