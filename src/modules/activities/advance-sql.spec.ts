import { SqlParams } from '../../shared/infrastructure/sql-params';
import { advanceManySql, ActivityChanges, ActivityMove } from './activities.repository';

const NOW = new Date('2026-01-02T03:04:05.000Z');

/** The statement on its own, as the batched advance runs it. */
function statement(move: Omit<ActivityMove, 'now'>, columns: string[], rows: Array<{ id: string; changes: ActivityChanges }>) {
  const params = new SqlParams();
  const sql = advanceManySql(params, { ...move, now: NOW }, columns, rows);
  return { sql, params: params.values };
}

describe('advanceManySql', () => {
  it('moves many activities of one workspace from one stage in one statement, each to its own values', () => {
    const { sql, params } = statement(
      { workspaceId: '7', from: 'enrich' },
      ['company_info', 'stage'],
      [
        { id: '41', changes: { stage: 'evaluate', company_info: { name: 'A' } as never } },
        { id: '42', changes: { stage: 'evaluate', company_info: null } },
      ],
    );
    expect(sql).toBe(
      'UPDATE activities a SET updated_at = $3, company_info = v.company_info::json, stage = v.stage ' +
        'FROM unnest($4::bigint[], $5::text[], $6::text[]) AS v (id, company_info, stage) ' +
        "WHERE a.workspace_id = $1 AND (a.stage = $2 OR ($2::text IS NULL AND a.stage <> 'done')) AND a.id = v.id RETURNING a.id",
    );
    expect(params).toEqual(['7', 'enrich', NOW, ['41', '42'], ['{"name":"A"}', null], ['evaluate', 'evaluate']]);
  });

  it('moves from any stage but done when no stage is given', () => {
    const { sql, params } = statement({ workspaceId: '7', from: null }, ['stage'], [{ id: '41', changes: { stage: 'done' } }]);
    expect(params.slice(0, 2)).toEqual(['7', null]);
    expect(sql).toContain("($2::text IS NULL AND a.stage <> 'done')");
  });

  it('sends bigint columns as bigint arrays', () => {
    const { sql } = statement({ workspaceId: '7', from: 'match' }, ['buyer_id'], [{ id: '1', changes: { buyer_id: '9' } }]);
    expect(sql).toContain('unnest($4::bigint[], $5::bigint[])');
  });

  it('refuses a column that is not a pipeline result, so no caller can widen what a step writes', () => {
    const move = { workspaceId: '7', from: 'resolve' } as const;
    expect(() => statement(move, ['workspace_id'], [{ id: '1', changes: {} }])).toThrow(/workspace_id/);
    expect(() => statement(move, ['stage = stage; --'], [{ id: '1', changes: {} }])).toThrow(/not a pipeline result/);
  });

  it('shares the workspace and the time with the statement it is part of, by name', () => {
    const params = new SqlParams();
    const now = params.bind('now', NOW);
    const workspace = params.bind('workspace', '7');
    params.bind('signals', '[]');
    const sql = advanceManySql(params, { workspaceId: '7', from: null, now: NOW }, ['stage'], [{ id: '41', changes: { stage: 'done' } }]);
    expect([now, workspace]).toEqual(['$1', '$2']);
    expect(sql).toBe(
      'UPDATE activities a SET updated_at = $1, stage = v.stage FROM unnest($5::bigint[], $6::text[]) AS v (id, stage) ' +
        "WHERE a.workspace_id = $2 AND (a.stage = $4 OR ($4::text IS NULL AND a.stage <> 'done')) AND a.id = v.id RETURNING a.id",
    );
    expect(params.values).toEqual([NOW, '7', '[]', null, ['41'], ['done']]);
  });

  it('refuses a workspace or time other than the ones the statement has bound', () => {
    const params = new SqlParams();
    params.bind('workspace', '7');
    expect(() => advanceManySql(params, { workspaceId: '8', from: null, now: NOW }, ['stage'], [])).toThrow(/workspace/);
  });
});
