import { firstIdAt, formatId, mintedAt, ID_PREFIXES, IdGenerator, MAX_ID, parseId } from './ids';

const INT64_MAX = 9223372036854775807n;

/** A controllable clock for the generator. */
function clockAt(ms: number) {
  const clock = { ms, now: () => clock.ms };
  return clock;
}

function expectStrictlyIncreasing(values: readonly string[]) {
  for (let i = 1; i < values.length; i++) {
    if (!(BigInt(values[i]) > BigInt(values[i - 1]))) {
      throw new Error(`id ${i} (${values[i]}) is not greater than id ${i - 1} (${values[i - 1]})`);
    }
  }
}

describe('IdGenerator', () => {
  const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);

  it('returns decimal strings of positive integers that fit in a signed 64-bit bigint', () => {
    const gen = new IdGenerator();
    for (let i = 0; i < 1000; i++) {
      const id = gen.next();
      expect(id).toMatch(/^[1-9][0-9]*$/);
      expect(BigInt(id)).toBeLessThanOrEqual(INT64_MAX);
    }
  });

  it('still fits in a signed 64-bit bigint decades from now', () => {
    const gen = new IdGenerator(() => Date.UTC(2090, 11, 31, 23, 59, 59, 999));
    for (let i = 0; i < 1000; i++) {
      const id = BigInt(gen.next());
      expect(id).toBeGreaterThan(0n);
      expect(id).toBeLessThanOrEqual(INT64_MAX);
    }
  });

  it('is time-ordered: an id minted a millisecond later is larger, whatever the randomness', () => {
    for (let i = 0; i < 500; i++) {
      const earlier = new IdGenerator(() => T0 + i).next();
      const later = new IdGenerator(() => T0 + i + 1).next();
      expect(BigInt(later)).toBeGreaterThan(BigInt(earlier));
    }
  });

  it('orders ids of different generators by time', () => {
    const a = new IdGenerator(() => T0);
    const b = new IdGenerator(() => T0 + 1000);
    const fromA = Array.from({ length: 1000 }, () => BigInt(a.next()));
    const fromB = Array.from({ length: 1000 }, () => BigInt(b.next()));
    const maxA = fromA.reduce((m, v) => (v > m ? v : m));
    const minB = fromB.reduce((m, v) => (v < m ? v : m));
    expect(minB).toBeGreaterThan(maxA);
  });

  it('gives 100,000 unique, increasing ids within one frozen millisecond', () => {
    const gen = new IdGenerator(() => T0);
    const out = Array.from({ length: 100_000 }, () => gen.next());
    expect(new Set(out).size).toBe(out.length);
    expectStrictlyIncreasing(out);
  });

  it('stays monotonic when the clock goes backwards', () => {
    const clock = clockAt(T0);
    const gen = new IdGenerator(clock.now);
    const out: string[] = [];
    for (let i = 0; i < 100; i++) out.push(gen.next());
    clock.ms = T0 - 60_000;
    for (let i = 0; i < 100; i++) out.push(gen.next());
    clock.ms = T0 - 1;
    for (let i = 0; i < 100; i++) out.push(gen.next());
    clock.ms = T0 + 1;
    for (let i = 0; i < 100; i++) out.push(gen.next());
    expect(new Set(out).size).toBe(out.length);
    expectStrictlyIncreasing(out);
  });

  it('stays monotonic and unique while the clock moves forward and back repeatedly', () => {
    const clock = clockAt(T0);
    const gen = new IdGenerator(clock.now);
    const out: string[] = [];
    const steps = [0, 1, 1, 0, -5, 2, 2, 10, -10, 3];
    for (let round = 0; round < 50; round++) {
      for (const step of steps) {
        clock.ms += step;
        out.push(gen.next());
      }
    }
    expect(new Set(out).size).toBe(out.length);
    expectStrictlyIncreasing(out);
  });
});

describe('formatId', () => {
  it('pads the number to 19 digits after the prefix', () => {
    expect(formatId('icp_', '123')).toBe('icp_0000000000000000123');
    expect(formatId('icp_', 123n)).toBe('icp_0000000000000000123');
    expect(formatId('per_', '1')).toBe('per_0000000000000000001');
  });

  it('does not pad a 19-digit number', () => {
    expect(formatId('sig_', MAX_ID)).toBe('sig_9223372036854775807');
    expect(formatId('sig_', INT64_MAX.toString())).toBe('sig_9223372036854775807');
  });

  it('formats generated ids as prefix + exactly 19 digits', () => {
    const gen = new IdGenerator();
    for (let i = 0; i < 100; i++) {
      expect(formatId(ID_PREFIXES.buyer, gen.next())).toMatch(/^buy_[0-9]{19}$/);
    }
  });

  it('keeps the time order in the string order of formatted ids', () => {
    const a = formatId('buy_', new IdGenerator(() => Date.UTC(2026, 0, 1)).next());
    const b = formatId('buy_', new IdGenerator(() => Date.UTC(2026, 0, 2)).next());
    expect(a < b).toBe(true);
  });
});

describe('ID_PREFIXES', () => {
  it('uses the prefixes of the spec and DESIGN §1 and §7 (the knowledge base declares its own)', () => {
    expect(ID_PREFIXES).toEqual({
      workspace: 'wor_',
      buyer: 'buy_',
      signal: 'sig_',
      targetList: 'lis_',
      request: 'req_',
      event: 'evt_',
      webhookEndpoint: 'whe_',
      webhookDelivery: 'whd_',
      apiKey: 'key_',
      activity: 'act_',
      // Console users (docs/console.md).
      consoleUser: 'usr_',
    });
  });
});

describe('parseId', () => {
  it('round-trips a formatted generated id', () => {
    const value = new IdGenerator().next();
    expect(parseId('icp_', formatId('icp_', value))).toEqual({ kind: 'ok', value });
  });

  it.each([
    ['icp_0000000000000000123', '123'],
    ['icp_0000000000000000001', '1'],
    ['icp_9223372036854775807', '9223372036854775807'],
  ])('reads %s as %s', (raw, value) => {
    expect(parseId('icp_', raw)).toEqual({ kind: 'ok', value });
  });

  it.each([
    ['another prefix', 'per_0000000000000000123'],
    ['upper-case prefix', 'ICP_0000000000000000123'],
    ['no prefix', '0000000000000000123'],
    ['prefix only', 'icp_'],
    ['empty string', ''],
    ['letters after the prefix', 'icp_00000000000000001a3'],
    ['hex', 'icp_0x1f'],
    ['sign', 'icp_-0000000000000000123'],
    ['plus sign', 'icp_+123'],
    ['decimal point', 'icp_123.0'],
    ['exponent', 'icp_1e5'],
    ['inner space', 'icp_ 123'],
    ['trailing space', 'icp_123 '],
    ['trailing newline', 'icp_123\n'],
    ['non-ASCII digits', 'icp_١٢٣'],
    ['full-width digits', 'icp_１２３'],
    ['path traversal', 'icp_../123'],
  ])('is malformed with %s (%s)', (_what, raw) => {
    expect(parseId('icp_', raw)).toEqual({ kind: 'malformed' });
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 123],
    ['a bigint', 123n],
    ['an array', ['icp_0000000000000000123']],
    ['an object', { id: 'icp_0000000000000000123' }],
  ])('is malformed for a non-string: %s', (_what, raw) => {
    expect(parseId('icp_', raw)).toEqual({ kind: 'malformed' });
  });

  it.each([
    ['zero', 'icp_0000000000000000000'],
    ['short zero', 'icp_0'],
    ['int64 max + 1', 'icp_9223372036854775808'],
    ['20 digits', 'icp_99999999999999999999'],
    ['very long', `icp_${'9'.repeat(500)}`],
    ['fewer than 19 digits', 'icp_123'],
    ['leading zeros beyond 19 digits', 'icp_00000000000000000000123'],
    ['one extra leading zero', 'icp_00000000000000001234'],
  ])('is absent for %s', (_what, raw) => {
    expect(parseId('icp_', raw)).toEqual({ kind: 'absent' });
  });
});

describe('firstIdAt', () => {
  const day = new Date('2026-11-26T00:00:00Z');

  it('is the millisecond since 2024-01-01 shifted past the 22 sequence bits', () => {
    expect(firstIdAt(new Date('2024-01-01T00:00:00Z'))).toBe(0n);
    expect(firstIdAt(new Date('2024-01-01T00:00:00.001Z'))).toBe(1n << 22n);
    expect(firstIdAt(day)).toBe(BigInt(day.getTime() - Date.UTC(2024, 0, 1)) << 22n);
    // Before the epoch ids are minted as at the epoch.
    expect(firstIdAt(new Date('2020-01-01T00:00:00Z'))).toBe(0n);
  });

  it('bounds the ids minted from that instant on, and only those', () => {
    for (let i = 0; i < 50; i++) {
      const before = BigInt(new IdGenerator(() => day.getTime() - 1).next());
      const at = BigInt(new IdGenerator(() => day.getTime()).next());
      const after = BigInt(new IdGenerator(() => day.getTime() + 86_399_999).next());
      expect(before < firstIdAt(day)).toBe(true);
      expect(at >= firstIdAt(day)).toBe(true);
      expect(after < firstIdAt(new Date(day.getTime() + 86_400_000))).toBe(true);
      expect(mintedAt(at)).toEqual(day);
      expect(mintedAt(firstIdAt(day).toString())).toEqual(day);
    }
  });
});
