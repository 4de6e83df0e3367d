import { advanceManySql, advanceSql } from './activities.repository';

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

describe('advanceManySql', () => {
  it('moves many activities of one workspace from one stage in one statement, each to its own values', () => {
    const { sql, params } = advanceManySql(
      '7',
      'enrich',
      ['company_info', 'stage'],
      [
        { id: '41', changes: { stage: 'evaluate', company_info: { name: 'A' } as never } },
        { id: '42', changes: { stage: 'evaluate', company_info: null } },
      ],
      NOW,
    );
    expect(sql).toBe(
      'UPDATE activities a SET updated_at = $3, company_info = v.company_info::json, stage = v.stage ' +
        'FROM unnest($4::bigint[], $5::text[], $6::text[]) AS v (id, company_info, stage) ' +
        'WHERE a.workspace_id = $1 AND a.stage = $2 AND a.id = v.id RETURNING a.id',
    );
    expect(params).toEqual(['7', 'enrich', NOW, ['41', '42'], ['{"name":"A"}', null], ['evaluate', 'evaluate']]);
  });

  it('sends bigint columns as bigint arrays', () => {
    const { sql } = advanceManySql('7', 'match', ['buyer_id'], [{ id: '1', changes: { buyer_id: '9' } }], NOW);
    expect(sql).toContain('unnest($4::bigint[], $5::bigint[])');
  });

  it('refuses a column that is not a pipeline result', () => {
    expect(() => advanceManySql('7', 'resolve', ['workspace_id'], [{ id: '1', changes: {} }], NOW)).toThrow(/workspace_id/);
  });
});
