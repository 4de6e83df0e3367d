import { initialPaging, pagingReducer, prependNew, type PagingState } from './paging';

type Row = { id: string };
const page = (ids: string[], next: string | null, hasMore?: boolean) => ({
  data: ids.map((id) => ({ id })),
  pagination: hasMore === undefined ? { next_cursor: next } : { next_cursor: next, has_more: hasMore },
});

describe('pagingReducer', () => {
  const started = (): PagingState<Row> => pagingReducer(initialPaging<Row>(), { type: 'reset' });

  it('appends pages and keeps the next cursor while there is one', () => {
    let state = started();
    state = pagingReducer(state, { type: 'page', generation: state.generation, page: page(['a', 'b'], 'c1') });
    expect(state).toMatchObject({ hasMore: true, nextCursor: 'c1', loading: false });
    state = pagingReducer(state, { type: 'request' });
    expect(state.loading).toBe(true);
    state = pagingReducer(state, { type: 'page', generation: state.generation, page: page(['c'], null) });
    expect(state.items.map((row) => row.id)).toEqual(['a', 'b', 'c']);
    expect(state).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('treats a short page with a cursor as not the end, and has_more false as the end', () => {
    let state = started();
    state = pagingReducer(state, { type: 'page', generation: state.generation, page: page([], 'c1') });
    expect(state.hasMore).toBe(true);
    state = pagingReducer(state, { type: 'page', generation: state.generation, page: page(['x'], 'c2', false) });
    expect(state.hasMore).toBe(false);
  });

  it('drops a reply to a request made before a reset', () => {
    const first = started();
    const second = pagingReducer(first, { type: 'reset' });
    expect(pagingReducer(second, { type: 'page', generation: first.generation, page: page(['old'], null) })).toBe(second);
    expect(pagingReducer(second, { type: 'failed', generation: first.generation, error: new Error('x') })).toBe(second);
  });

  it('records a failure', () => {
    const state = started();
    const error = new Error('down');
    expect(pagingReducer(state, { type: 'failed', generation: state.generation, error })).toMatchObject({ loading: false, error });
  });

  it('prepends, replaces and removes rows by id', () => {
    let state = started();
    state = pagingReducer(state, { type: 'page', generation: state.generation, page: page(['a', 'b'], null) });
    const key = (row: Row & { v?: number }) => row.id;
    state = pagingReducer(state, { type: 'prepend', items: [{ id: 'z' }, { id: 'a' }], key });
    expect(state.items.map((row) => row.id)).toEqual(['z', 'a', 'b']);
    state = pagingReducer(state, { type: 'remove', id: 'a', key });
    expect(state.items.map((row) => row.id)).toEqual(['z', 'b']);
  });
});

describe('prependNew', () => {
  it('puts new ids first, in the order given, skipping ones already shown or repeated', () => {
    const shown = [{ id: 'b' }, { id: 'a' }];
    expect(prependNew(shown, [{ id: 'd' }, { id: 'c' }, { id: 'b' }, { id: 'd' }], (row) => row.id).map((row) => row.id)).toEqual([
      'd',
      'c',
      'b',
      'a',
    ]);
  });
});
