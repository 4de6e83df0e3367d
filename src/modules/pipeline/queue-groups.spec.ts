import { queueGroupOf, queueGroupPrefix, queueGroupPrefixes } from './queue-groups';

describe('queue groups', () => {
  describe('prefixes', () => {
    it('are the queue prefix unchanged with one group, so existing queues keep their keys', () => {
      expect(queueGroupPrefix('bi', 0, 1)).toBe('bi');
      expect(queueGroupPrefix('{bi}', 0, 1)).toBe('{bi}');
      expect(queueGroupPrefixes('bi-{eu}', 1)).toEqual(['bi-{eu}']);
    });

    it('put the group number into the hash tag, or make the prefix one', () => {
      expect(queueGroupPrefixes('bi', 4)).toEqual(['{bi-0}', '{bi-1}', '{bi-2}', '{bi-3}']);
      expect(queueGroupPrefixes('{bi}', 4)).toEqual(['{bi-0}', '{bi-1}', '{bi-2}', '{bi-3}']);
      expect(queueGroupPrefixes('bi-{eu}-x', 2)).toEqual(['bi-{eu-0}-x', 'bi-{eu-1}-x']);
    });

    it('are the same whether a cluster wrapped the prefix or not', () => {
      expect(queueGroupPrefix('test-1', 2, 3)).toBe(queueGroupPrefix('{test-1}', 2, 3));
    });

    it('refuse a group outside the range', () => {
      expect(() => queueGroupPrefix('bi', 3, 3)).toThrow(RangeError);
      expect(() => queueGroupPrefix('bi', -1, 3)).toThrow(RangeError);
      expect(() => queueGroupPrefix('bi', 0, 0)).toThrow(RangeError);
    });
  });

  describe('the group of a workspace', () => {
    it('is always 0 with one group', () => {
      expect(queueGroupOf('123', 1)).toBe(0);
    });

    it('is its id modulo the number of groups, exact for ids past 2^53', () => {
      expect(queueGroupOf('7', 3)).toBe(1);
      expect(queueGroupOf('9', 3)).toBe(0);
      expect(queueGroupOf('9223372036854775807', 10)).toBe(7);
      expect(queueGroupOf('9007199254740993', 2)).toBe(1);
    });

    it('is stable, and spreads consecutive ids over every group', () => {
      const ids = Array.from({ length: 40 }, (_, i) => String(1_000 + i));
      const groups = ids.map((id) => queueGroupOf(id, 4));
      expect(ids.map((id) => queueGroupOf(id, 4))).toEqual(groups);
      expect(new Set(groups)).toEqual(new Set([0, 1, 2, 3]));
      for (let g = 0; g < 4; g += 1) expect(groups.filter((x) => x === g)).toHaveLength(10);
    });

    it('refuses what is not a workspace id', () => {
      expect(() => queueGroupOf('ws_1', 2)).toThrow(RangeError);
    });
  });
});
