import { firstIdAt, IdGenerator } from '../shared/domain/ids';
import {
  ACTIVITY_PARTITIONS,
  addPeriods,
  expiredPeriods,
  initialPartitionsSql,
  PartitionedTable,
  PartitionLayout,
  partitionName,
  periodOf,
  periodsToCreate,
  periodStart,
  SIGNAL_PARTITIONS,
} from './partitions';

const utc = (text: string) => new Date(`${text}Z`);
const DAYS: PartitionedTable = { table: 'things', unit: 'day', column: 'id', ahead: 2, boundary: (at) => String(at.getTime()) };

function layout(spec: PartitionedTable, ...starts: string[]): PartitionLayout {
  return { periods: starts.map((start) => ({ name: partitionName(spec, utc(start)), start: utc(start), detachPending: false })) };
}

describe('periods', () => {
  it('start at the first UTC instant of the month or day, whatever the time within it', () => {
    expect(periodStart('month', utc('2026-11-30T23:59:59.999'))).toEqual(utc('2026-11-01T00:00:00'));
    expect(periodStart('day', utc('2026-11-30T23:59:59.999'))).toEqual(utc('2026-11-30T00:00:00'));
  });

  it('step over year ends and month lengths, both ways', () => {
    expect(addPeriods('month', utc('2026-11-01T00:00'), 3)).toEqual(utc('2027-02-01T00:00'));
    expect(addPeriods('month', utc('2026-01-01T00:00'), -13)).toEqual(utc('2024-12-01T00:00'));
    expect(addPeriods('day', utc('2028-02-28T00:00'), 2)).toEqual(utc('2028-03-01T00:00'));
  });

  it('are named after their start, and only those names are read back as periods', () => {
    expect(partitionName(SIGNAL_PARTITIONS, utc('2026-03-01T00:00'))).toBe('signals_p202603');
    expect(partitionName(DAYS, utc('2026-03-09T00:00'))).toBe('things_p20260309');
    expect(periodOf(SIGNAL_PARTITIONS, 'signals_p202603')).toEqual(utc('2026-03-01T00:00'));
    expect(periodOf(DAYS, 'things_p20260309')).toEqual(utc('2026-03-09T00:00'));
    for (const name of ['signals_min', 'signals_max', 'signals_p202613', 'signals_p20260301', 'other_p202603']) {
      expect(periodOf(SIGNAL_PARTITIONS, name)).toBeNull();
    }
    expect(periodOf(DAYS, 'things_p20260230')).toBeNull();
  });
});

describe('periods to create', () => {
  const now = utc('2026-11-26T15:00');

  it('are those after the newest, up to `ahead` periods after the current one', () => {
    expect(periodsToCreate(SIGNAL_PARTITIONS, layout(SIGNAL_PARTITIONS, '2026-10-01T00:00', '2026-11-01T00:00'), now)).toEqual([
      utc('2026-12-01T00:00'),
      utc('2027-01-01T00:00'),
      utc('2027-02-01T00:00'),
    ]);
  });

  it('are none when the layout already reaches far enough', () => {
    const ready = layout(DAYS, '2026-11-26T00:00', '2026-11-27T00:00', '2026-11-28T00:00');
    expect(periodsToCreate(DAYS, ready, now)).toEqual([]);
  });

  it('start at the newest period, not at the current one, so that no gap is left after a long stop', () => {
    expect(periodsToCreate(DAYS, layout(DAYS, '2026-11-20T00:00'), now)).toHaveLength(8);
  });
});

describe('expired periods', () => {
  it('are those that end at or before the start of the period `retention` periods back', () => {
    const months = layout(SIGNAL_PARTITIONS, '2026-08-01T00:00', '2026-09-01T00:00', '2026-10-01T00:00', '2026-11-01T00:00');
    const names = (retention: number) =>
      expiredPeriods(SIGNAL_PARTITIONS, months, utc('2026-11-26T15:00'), retention).map((period) => period.name);
    expect(names(1)).toEqual(['signals_p202608', 'signals_p202609']);
    expect(names(2)).toEqual(['signals_p202608']);
    expect(names(3)).toEqual([]);
  });
});

describe('a new table', () => {
  it('gets both catch-alls and consecutive periods between them', () => {
    expect(initialPartitionsSql(SIGNAL_PARTITIONS, utc('2026-11-01T00:00'), utc('2026-12-01T00:00'))).toEqual([
      `CREATE TABLE signals_min PARTITION OF signals FOR VALUES FROM (MINVALUE) TO ('2026-11-01T00:00:00.000Z')`,
      `CREATE TABLE signals_p202611 PARTITION OF signals FOR VALUES FROM ('2026-11-01T00:00:00.000Z') TO ('2026-12-01T00:00:00.000Z')`,
      `CREATE TABLE signals_p202612 PARTITION OF signals FOR VALUES FROM ('2026-12-01T00:00:00.000Z') TO ('2027-01-01T00:00:00.000Z')`,
      `CREATE TABLE signals_max PARTITION OF signals FOR VALUES FROM ('2027-01-01T00:00:00.000Z') TO (MAXVALUE)`,
    ]);
  });
});

describe('the activities', () => {
  it('are partitioned by UTC day on the id, each day from the first id of its first millisecond', () => {
    expect(ACTIVITY_PARTITIONS).toMatchObject({ table: 'activities', unit: 'day', column: 'id' });
    const day = utc('2026-11-26T00:00');
    expect(ACTIVITY_PARTITIONS.boundary(day)).toBe(firstIdAt(day).toString());
    expect(/^[0-9]+$/.test(ACTIVITY_PARTITIONS.boundary(day))).toBe(true);
    // An id minted during the day falls in its range, not in the next day's.
    const id = BigInt(new IdGenerator(() => utc('2026-11-26T23:59:59.999').getTime()).next());
    expect(id >= BigInt(ACTIVITY_PARTITIONS.boundary(day))).toBe(true);
    expect(id < BigInt(ACTIVITY_PARTITIONS.boundary(addPeriods('day', day, 1)))).toBe(true);
  });

  it('get their storage parameters on every partition, catch-alls included', () => {
    const statements = initialPartitionsSql(ACTIVITY_PARTITIONS, utc('2026-11-26T00:00'), utc('2026-11-27T00:00'));
    expect(statements.map((s) => /PARTITION OF activities .* WITH \(fillfactor = 50\)$/.test(s))).toEqual([true, true, true, true]);
    expect(statements[1]).toBe(
      `CREATE TABLE activities_p20261126 PARTITION OF activities FOR VALUES FROM (${firstIdAt(utc('2026-11-26T00:00'))}) ` +
        `TO (${firstIdAt(utc('2026-11-27T00:00'))}) WITH (fillfactor = 50)`,
    );
    expect(
      initialPartitionsSql(SIGNAL_PARTITIONS, utc('2026-11-01T00:00'), utc('2026-11-01T00:00')).some((s) => s.includes(' WITH (')),
    ).toBe(false);
  });
});
