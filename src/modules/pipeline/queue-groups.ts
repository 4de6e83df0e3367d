/**
 * Queue groups (ADR 0054): the pipeline's queues, once per group, each group under its own
 * hash tag, so that on a Redis Cluster the groups' keys fall in different slots and the masters
 * share the queue traffic. A workspace's activities always go to the same group, so its jobs keep
 * their order and are batched together as with one group.
 */

/**
 * The key prefix of group `group` out of `groups`. One group keeps the prefix as it is (the queues'
 * keys stay where they were before there were groups). With more, the group's number joins the
 * prefix's hash tag (`{bi}` → `{bi-2}`, `bi-{eu}` → `bi-{eu-2}`), or a prefix without one becomes
 * one (`bi` → `{bi-2}`), alike on a cluster and on one Redis.
 */
export function queueGroupPrefix(prefix: string, group: number, groups: number): string {
  if (!Number.isInteger(groups) || groups < 1) throw new RangeError(`groups must be a whole number of at least 1, got ${groups}`);
  if (!Number.isInteger(group) || group < 0 || group >= groups) throw new RangeError(`group must be in [0, ${groups}), got ${group}`);
  if (groups === 1) return prefix;
  const tag = /\{([^{}]+)\}/.exec(prefix);
  return tag ? prefix.replace(tag[0], `{${tag[1]}-${group}}`) : `{${prefix}-${group}}`;
}

/** The prefixes of every group, group 0 first. */
export function queueGroupPrefixes(prefix: string, groups: number): string[] {
  return Array.from({ length: groups }, (_, group) => queueGroupPrefix(prefix, group, groups));
}

/**
 * The group of a workspace: its id (a positive decimal bigint) modulo the number of groups. An id's
 * low bits are a sequence that starts at a random point each millisecond (`IdGenerator`), so
 * workspaces spread evenly over the groups.
 */
export function queueGroupOf(workspaceId: string, groups: number): number {
  if (groups === 1) return 0;
  if (!/^[0-9]{1,19}$/.test(workspaceId)) throw new RangeError(`not a workspace id: "${workspaceId}"`);
  return Number(BigInt(workspaceId) % BigInt(groups));
}
