import { advanceManySql } from './activities.repository';

const NOW = new Date('2026-01-02T03:04:05.000Z');

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
        "WHERE a.workspace_id = $1 AND (a.stage = $2 OR ($2::text IS NULL AND a.stage <> 'done')) AND a.id = v.id RETURNING a.id",
    );
    expect(params).toEqual(['7', 'enrich', NOW, ['41', '42'], ['{"name":"A"}', null], ['evaluate', 'evaluate']]);
  });

  it('moves from any stage but done when no stage is given', () => {
    const { sql, params } = advanceManySql('7', null, ['stage'], [{ id: '41', changes: { stage: 'done' } }], NOW);
    expect(params.slice(0, 2)).toEqual(['7', null]);
    expect(sql).toContain("($2::text IS NULL AND a.stage <> 'done')");
  });

  it('sends bigint columns as bigint arrays', () => {
    const { sql } = advanceManySql('7', 'match', ['buyer_id'], [{ id: '1', changes: { buyer_id: '9' } }], NOW);
    expect(sql).toContain('unnest($4::bigint[], $5::bigint[])');
  });

  it('refuses a column that is not a pipeline result, so no caller can widen what a step writes', () => {
    expect(() => advanceManySql('7', 'resolve', ['workspace_id'], [{ id: '1', changes: {} }], NOW)).toThrow(/workspace_id/);
    expect(() => advanceManySql('7', 'resolve', ['stage = stage; --'], [{ id: '1', changes: {} }], NOW)).toThrow(/not a pipeline result/);
  });
});
