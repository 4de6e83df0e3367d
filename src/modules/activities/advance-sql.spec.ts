import { advanceSql } from './activities.repository';

const NOW = new Date('2026-01-02T03:04:05.000Z');

describe('advanceSql', () => {
  it('moves the stage only from the expected stage, within the workspace', () => {
    const { sql, params } = advanceSql('7', '42', 'resolve', { stage: 'enrich', person_key: 'a@b.co' }, NOW);
    expect(sql).toBe(
      'UPDATE activities SET updated_at = $4, stage = $5, person_key = $6 WHERE workspace_id = $1 AND id = $2 AND stage = $3',
    );
    expect(params).toEqual(['7', '42', 'resolve', NOW, 'enrich', 'a@b.co']);
  });

  it('sends JSON columns as JSON text, and null as null', () => {
    const identity = { email: 'a@b.co', hems: [{ type: 'md5', value: 'x' }] };
    const { params } = advanceSql('7', '42', 'resolve', { identity: identity as never, evaluation: null }, NOW);
    expect(params.slice(4)).toEqual([JSON.stringify(identity), null]);
  });

  it('numbers its parameters after the ones of a statement it is appended to', () => {
    const { sql, params } = advanceSql('7', '42', 'match', { stage: 'done' }, NOW, 11);
    expect(sql).toBe('UPDATE activities SET updated_at = $14, stage = $15 WHERE workspace_id = $11 AND id = $12 AND stage = $13');
    expect(params).toHaveLength(5);
  });

  it('refuses a column that is not a pipeline result, so no caller can widen what a step writes', () => {
    expect(() => advanceSql('7', '42', 'resolve', { workspace_id: '8' } as never, NOW)).toThrow(/workspace_id/);
    expect(() => advanceSql('7', '42', 'resolve', { 'stage = stage; --': 'x' } as never, NOW)).toThrow(/not a pipeline result/);
  });
});
