import type { ActivityEntity } from '../../activities/activity.entity';
import { companyInfoTemplate, contactInfoTemplate } from '../../buyers/buyer-shape';
import { BuyerWriter, NewSignal } from './buyer-writer';
import { newLockedBuyer } from './locked-buyer.fixtures';
import { MatchWrite, MatchWriter } from './match-writer';

const NOW = new Date('2026-01-02T03:04:05.000Z');

function signal(id: string, at: string): NewSignal {
  const activity = {
    id: `9${id}`,
    type: 'website',
    trigger: 'visited_page',
    occurred_at: new Date(at),
    payload: { attribution: { source: 'google' } },
    contact_info: contactInfoTemplate(),
    company_info: companyInfoTemplate(),
    identity: { email: 'ann@acme.com', hems: [{ type: 'md5', value: 'x' }] },
    evaluation: {
      icp: { matched: false, id: null, name: '', reasoning: 'industry failed' },
      persona: { matched: true, id: '6', name: 'Finance', reasoning: 'title matched' },
    },
  } as unknown as ActivityEntity;
  return {
    id,
    buyerId: '1',
    activity,
    data: { type: 'website' },
    matched: { resource: 'target_page', id: 'tpg_1', name: 'Pricing', short_name: 'pricing', description: '' },
  };
}

/** One Buyer with one Signal folded in (its first Signal left as stored), one activity processed, one discarded. */
function oneMatch(): MatchWrite {
  const fold = BuyerWriter.startFold(newLockedBuyer());
  const matched = signal('10', '2026-01-01T00:10:00Z');
  BuyerWriter.fold(fold, matched);
  fold.first = null;
  return {
    folds: [fold],
    signals: [matched],
    outcomes: [
      { id: '910', changes: { stage: 'done', status: 'processed', buyer_id: '1', signal_id: '10' } },
      { id: '911', changes: { stage: 'done', status: 'discarded', discard_reason: 'no_target_match' } },
    ],
  };
}

/** The `$n` the statement uses, in increasing order. */
const placeholders = (sql: string) => [...new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);

describe('MatchWriter.statement', () => {
  it('updates the Buyers column by column, inserts the Signals as JSON, and moves the activities to done, in one statement', () => {
    const { sql, params } = MatchWriter.statement('ws', oneMatch(), NOW);
    // Workspace and time; 27 Buyer columns (id first); the Signals; whether events are written; the activities' stage, ids and eleven outcome columns.
    expect(params).toHaveLength(2 + 27 + 1 + 1 + 2 + 11);
    expect(params.slice(0, 2)).toEqual(['ws', NOW]);
    expect(sql).toMatch(/^WITH buyer_update AS \(UPDATE buyers b SET /);
    expect(sql).toContain('FROM unnest($3::bigint[], $4::text[]');
    expect(sql).toContain('contact_info = v.contact_info::json');
    expect(sql).toContain('first_signal_id = coalesce(v.first_signal_id, b.first_signal_id)');
    expect(sql).toContain(', updated_at = GREATEST(b.created_at, $2)\n');
    expect(sql).toContain('WHERE b.workspace_id = $1 AND b.id = ANY($3::bigint[]) AND b.id = v.id');
    expect(sql).toContain('SELECT s.id, $1, s.buyer_id, s.type, s.trigger, s.data, s.captured_at, $2, $2, s.activity_id, s.matched');
    expect(sql).toContain('json_to_recordset($30::json)');
    // The activities' update shares the workspace and the time: the same parameters, not copies.
    expect(sql).toContain(') UPDATE activities a SET updated_at = $2, buyer_id = v.buyer_id, company_info = v.company_info::json,');
    expect(sql).toContain(
      "WHERE a.workspace_id = $1 AND (a.stage = $32 OR ($32::text IS NULL AND a.stage <> 'done')) AND a.id = v.id RETURNING a.id",
    );

    const buyerColumn = (name: string) => {
      const names = /AS v \(([^)]*)\)/.exec(sql)![1].split(', ');
      return params[2 + names.indexOf(name)];
    };
    expect(buyerColumn('id')).toEqual(['1']);
    expect(buyerColumn('first_signal_id')).toEqual([null]);
    expect(buyerColumn('last_signal_id')).toEqual(['10']);
    expect(buyerColumn('signal_count_total')).toEqual([1]);
    expect(buyerColumn('icp_id')).toEqual([null]);
    expect(buyerColumn('persona_id')).toEqual(['6']);
    expect(JSON.parse((buyerColumn('hems') as string[])[0])).toEqual([{ type: 'md5', value: 'x' }]);
    // The evaluation the flags come from, kept whole with the activity it was made for.
    expect(JSON.parse((buyerColumn('evaluation') as string[])[0])).toMatchObject({
      persona: { matched: true, id: '6' },
      activity_id: '910',
    });
    const [row] = JSON.parse(params[29] as string);
    expect(row).toMatchObject({ id: '10', buyer_id: '1', activity_id: '910', type: 'website', captured_at: '2026-01-01T00:10:00.000Z' });
    expect(params[30]).toBe(true);
    expect(params.slice(31, 33)).toEqual([null, ['910', '911']]);
    const activityColumns = /AS v \((id, buyer_id[^)]*)\)/.exec(sql)![1].split(', ');
    const activityColumn = (name: string) => params[32 + activityColumns.indexOf(name)];
    expect(activityColumn('status')).toEqual(['processed', 'discarded']);
    expect(activityColumn('signal_id')).toEqual(['10', null]);
    expect(activityColumn('discard_reason')).toEqual([null, 'no_target_match']);
  });

  it('uses every parameter it passes, and no other', () => {
    for (const write of [oneMatch(), { folds: [], signals: [], outcomes: [{ id: '912', changes: { stage: 'done' as const } }] }]) {
      const { sql, params } = MatchWriter.statement('ws', write, NOW);
      expect(placeholders(sql)).toEqual(params.map((_, i) => i + 1));
    }
  });

  it('keeps its text whatever the batch, so it is prepared once', () => {
    const many = oneMatch();
    const none: MatchWrite = {
      folds: [],
      signals: [],
      outcomes: [{ id: '912', changes: { stage: 'done', status: 'discarded', discard_reason: 'excluded_company' } }],
    };
    expect(MatchWriter.statement('ws', none, NOW).sql).toBe(MatchWriter.statement('other', many, new Date()).sql);
  });
});
