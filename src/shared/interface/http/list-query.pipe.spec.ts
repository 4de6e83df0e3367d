import { AppError } from '../../application/app-error';
import { cursorParser, enumParser, limitParser, ListQueryPipe, prefixedIdParser, timestampParser } from './list-query.pipe';

function rejection(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('timestampParser', () => {
  it.each(['2026-01-01T00:00:00Z', '2024-02-29T23:59:59Z', '1999-12-31T12:30:45Z'])('accepts %s', (value) => {
    expect((timestampParser(value, 't') as Date).toISOString()).toBe(value.replace('Z', '.000Z'));
  });

  it.each([
    '2026-01-01',
    '2026-01-01T00:00:00',
    '2026-01-01T00:00:00.000Z',
    '2026-01-01T00:00:00+00:00',
    '2026-01-01 00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:60:00Z',
    '2026-13-01T00:00:00Z',
    '2026-1-01T00:00:00Z',
    '',
    'now',
  ])('rejects %j as invalid_parameter naming the parameter', (value) => {
    const error = rejection(() => timestampParser(value, 'captured_after'));
    expect(error.code).toBe('invalid_parameter');
    expect(error.param).toBe('captured_after');
  });
});

describe('limitParser', () => {
  it.each([
    ['1', 1],
    ['100', 100],
    ['1000', 1000],
    ['010', 10],
  ])('accepts %s', (value, expected) => {
    expect(limitParser(value, 'limit')).toBe(expected);
  });

  it.each(['0', '1001', '-1', '1.5', 'abc', '', ' 5', '1e3', '99999999999'])('rejects %j', (value) => {
    expect(rejection(() => limitParser(value, 'limit'))).toMatchObject({ code: 'invalid_parameter', param: 'limit' });
  });
});

describe('enumParser and prefixedIdParser', () => {
  it('accepts only the listed values, case-sensitively', () => {
    const order = enumParser(['asc', 'desc']);
    expect(order('asc', 'sort_order')).toBe('asc');
    expect(rejection(() => order('DESC', 'sort_order'))).toMatchObject({ param: 'sort_order' });
  });

  it('turns a public id into its number, a malformed one into invalid_parameter, an impossible one into no match', () => {
    const buyer = prefixedIdParser('buy_');
    expect(buyer('buy_0000000000000000042', 'buyer_id')).toBe('42');
    expect(rejection(() => buyer('sig_0000000000000000042', 'buyer_id'))).toMatchObject({ param: 'buyer_id' });
    expect(rejection(() => buyer('buy_abc', 'buyer_id'))).toMatchObject({ code: 'invalid_parameter' });
    expect(buyer('buy_0', 'buyer_id')).toBe('0');
  });
});

describe('ListQueryPipe', () => {
  const pipe = new ListQueryPipe<{ limit: number; cursor?: string; type?: string; trigger?: string }>(
    { limit: limitParser, cursor: cursorParser, type: enumParser(['a', 'b']), trigger: enumParser(['x']) },
    { limit: 100 },
    (query) => {
      if (query.trigger !== undefined && query.type === undefined) throw AppError.invalidParameter('trigger', 'needs type');
    },
  );

  it('applies defaults and parsers', () => {
    expect(pipe.transform({})).toEqual({ limit: 100 });
    expect(pipe.transform({ limit: '5', cursor: 'c', type: 'a' })).toEqual({ limit: 5, cursor: 'c', type: 'a' });
  });

  it('rejects unknown names, repeated names and inherited names', () => {
    expect(rejection(() => pipe.transform({ offset: '10' }))).toMatchObject({ code: 'invalid_parameter', param: 'offset' });
    expect(rejection(() => pipe.transform({ limit: ['1', '2'] }))).toMatchObject({ param: 'limit' });
    expect(rejection(() => pipe.transform(JSON.parse('{"__proto__":"x"}')))).toMatchObject({ param: '__proto__' });
    expect(rejection(() => pipe.transform({ toString: 'x' }))).toMatchObject({ param: 'toString' });
  });

  it('runs the cross-parameter check', () => {
    expect(rejection(() => pipe.transform({ trigger: 'x' }))).toMatchObject({ param: 'trigger' });
    expect(pipe.transform({ trigger: 'x', type: 'b' })).toEqual({ limit: 100, trigger: 'x', type: 'b' });
  });
});
