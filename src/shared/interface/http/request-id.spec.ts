import { newRequestId } from './request-id';

describe('newRequestId', () => {
  it('is req_ and 24 lowercase letters or digits', () => {
    expect(newRequestId()).toMatch(/^req_[0-9a-z]{24}$/);
  });

  it('never repeats, also across refills of its random block', () => {
    // 20,000 ids span about 80 refills of the 256-id block.
    const ids = Array.from({ length: 20_000 }, newRequestId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 50)) expect(id).toMatch(/^req_[0-9a-z]{24}$/);
  });

  it('uses the whole alphabet', () => {
    const seen = new Set(Array.from({ length: 200 }, newRequestId).join(''));
    for (const char of 'abcxyz0189') expect(seen.has(char)).toBe(true);
  });
});
