import { carriedWith, isPipelineJob, passOf, PipelineJob, pipelineJobId } from './queues';

const identity = { personKey: 'email:ann@acme.com', email: 'ann@acme.com', linkedin: '', hems: [] };
const job = (carried?: unknown): PipelineJob =>
  ({ workspaceId: '7', activityId: '42', ...(carried === undefined ? {} : { carried }) }) as PipelineJob;

describe('pipeline jobs', () => {
  it('accept ids with or without carried findings, and nothing else as carried', () => {
    expect(isPipelineJob(job())).toBe(true);
    expect(isPipelineJob(job({ identity }))).toBe(true);
    for (const carried of [null, 'x', 3, [identity]]) expect(isPipelineJob(job(carried))).toBe(false);
    expect(isPipelineJob({ workspaceId: '7', activityId: '4x' })).toBe(false);
  });

  it('give a step what it needs only when the job carries an identity and every field asked for, each an object', () => {
    const evaluation = { icp: {}, persona: {} };
    const full = job({ identity, contact_info: {}, company_info: {}, evaluation });
    expect(carriedWith(full, 'contact_info', 'company_info', 'evaluation')).toBe(full.carried);
    expect(carriedWith(job({ identity }))).toEqual({ identity });
    expect(carriedWith(job({ identity }), 'contact_info')).toBeNull();
    expect(carriedWith(job({ identity, contact_info: 'x', company_info: {} }), 'contact_info', 'company_info')).toBeNull();
    expect(carriedWith(job({ identity: { email: 'ann@acme.com' } }))).toBeNull();
    expect(carriedWith(job())).toBeNull();
  });

  it('name their pass in the job id, which the jobs of later steps keep', () => {
    expect(pipelineJobId('42')).toBe('act_0000000000000000042');
    expect(pipelineJobId('42', 'r17')).toBe('act_0000000000000000042-r17');
    expect(passOf(pipelineJobId('42'), '42')).toBeUndefined();
    expect(passOf(pipelineJobId('42', 's9'), '42')).toBe('s9');
    expect(passOf(pipelineJobId('43', 's9'), '42')).toBeUndefined();
    expect(passOf(undefined, '42')).toBeUndefined();
  });
});
