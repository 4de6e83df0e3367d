import { PipelineProducer } from './pipeline.producer';
import { PipelineQueues } from './pipeline-queues';
import { queueGroupOf } from './queue-groups';
import { PIPELINE_QUEUES, PipelineQueue } from './queues';

/** Queues that record what is added, and hold the jobs given by id. */
function fakeQueues(groups: number, jobs: Record<string, { finishedOn?: number }> = {}) {
  const added: Array<{ queue: PipelineQueue; group: number; ids: string[]; workspaces: string[] }> = [];
  const make = (queue: PipelineQueue, group: number) => ({
    add: jest.fn((_name: string, data: { workspaceId: string }, opts: { jobId: string }) => {
      added.push({ queue, group, ids: [opts.jobId], workspaces: [data.workspaceId] });
      return Promise.resolve();
    }),
    addBulk: jest.fn((list: Array<{ data: { workspaceId: string }; opts: { jobId: string } }>) => {
      added.push({ queue, group, ids: list.map((j) => j.opts.jobId), workspaces: list.map((j) => j.data.workspaceId) });
      return Promise.resolve();
    }),
    getJob: jest.fn((id: string) => Promise.resolve(jobs[`${group}/${queue}/${id}`])),
  });
  const byGroup = Array.from({ length: groups }, (_, group) => Object.fromEntries(PIPELINE_QUEUES.map((q) => [q, make(q, group)])));
  const queues = {
    groups,
    groupOf: (workspaceId: string) => queueGroupOf(workspaceId, groups),
    queue: (name: PipelineQueue, group = 0) => byGroup[group][name],
  } as unknown as PipelineQueues;
  return { producer: new PipelineProducer(queues), added };
}

describe('PipelineProducer with queue groups', () => {
  it("queues new activities on their workspace's group, one bulk per group", async () => {
    const { producer, added } = fakeQueues(3);
    await producer.enqueueMany('resolve', [
      { workspaceId: '3', activityId: '10' },
      { workspaceId: '4', activityId: '11' },
      { workspaceId: '6', activityId: '12' },
    ]);
    expect(added.sort((a, b) => a.group - b.group)).toEqual([
      { queue: 'resolve', group: 0, ids: ['act_0000000000000000010', 'act_0000000000000000012'], workspaces: ['3', '6'] },
      { queue: 'resolve', group: 1, ids: ['act_0000000000000000011'], workspaces: ['4'] },
    ]);
  });

  it('queues a later step on the group given (the one its step ran in), else on the workspace group', async () => {
    const { producer, added } = fakeQueues(3);
    await producer.enqueue('enrich', { workspaceId: '4', activityId: '11' }, undefined, 2);
    await producer.enqueue('enrich', { workspaceId: '4', activityId: '12' });
    expect(added.map(({ queue, group }) => ({ queue, group }))).toEqual([
      { queue: 'enrich', group: 2 },
      { queue: 'enrich', group: 1 },
    ]);
  });

  it("leaves an activity alone while a live job holds it in any group served, and else starts it again on its workspace's group", async () => {
    const id = 'act_0000000000000000011';
    const live = fakeQueues(3, { [`2/evaluate/${id}`]: {} });
    expect(await live.producer.requeue({ workspaceId: '4', activityId: '11' }, 5)).toBe(false);
    expect(live.added).toEqual([]);

    const finished = fakeQueues(3, { [`1/match/${id}`]: { finishedOn: 1 } });
    expect(await finished.producer.requeue({ workspaceId: '4', activityId: '11' }, 5)).toBe(true);
    expect(finished.added).toEqual([{ queue: 'resolve', group: 1, ids: [`${id}-s5`], workspaces: ['4'] }]);
  });
});
