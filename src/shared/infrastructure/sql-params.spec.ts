import { SqlParams } from './sql-params';

describe('SqlParams', () => {
  it('numbers values in the order they are first bound', () => {
    const params = new SqlParams();
    expect([params.bind('workspace', '7'), params.bind('now', 'n'), params.bind('ids', ['1'])]).toEqual(['$1', '$2', '$3']);
    expect(params.values).toEqual(['7', 'n', ['1']]);
  });

  it('answers the same placeholder for a name bound again to the same value, without a second parameter', () => {
    const params = new SqlParams();
    const now = new Date();
    expect(params.bind('now', now)).toBe('$1');
    expect(params.bind('workspace', '7')).toBe('$2');
    expect(params.bind('now', now)).toBe('$1');
    expect(params.values).toEqual([now, '7']);
  });

  it('refuses to bind a name again to another value', () => {
    const params = new SqlParams();
    params.bind('now', new Date(0));
    expect(() => params.bind('now', new Date(0))).toThrow(/now is already bound/);
    expect(() => params.bind('now', null)).toThrow(/now/);
  });

  it('refers to a bound name, and refuses a name nobody bound', () => {
    const params = new SqlParams();
    params.bind('workspace', '7');
    expect(params.ref('workspace')).toBe('$1');
    expect(() => params.ref('now')).toThrow(/now is not bound/);
  });
});
