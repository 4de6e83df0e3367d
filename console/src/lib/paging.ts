/**
 * The state of a cursor-paged list: the rows so far, the cursor of the next page, and whether a
 * page is on its way. A page ends the list when its `next_cursor` is null or its `has_more` is
 * false; a short page is not the end. `reset` starts over (new filters); a reply to an older request
 * is told apart by its `generation` and ignored.
 */

export interface PageLike<T> {
  data: T[];
  pagination: { next_cursor: string | null; has_more?: boolean };
}

export interface PagingState<T, E = unknown> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  loading: boolean;
  error: E | null;
  generation: number;
}

export type PagingAction<T, E = unknown> =
  | { type: 'reset' }
  | { type: 'request' }
  | { type: 'page'; generation: number; page: PageLike<T> }
  | { type: 'failed'; generation: number; error: E }
  | { type: 'prepend'; items: readonly T[]; key: (item: T) => string }
  | { type: 'replace'; item: T; key: (item: T) => string }
  | { type: 'remove'; id: string; key: (item: T) => string };

export function initialPaging<T, E = unknown>(): PagingState<T, E> {
  return { items: [], nextCursor: null, hasMore: false, loading: true, error: null, generation: 0 };
}

export function pagingReducer<T, E = unknown>(state: PagingState<T, E>, action: PagingAction<T, E>): PagingState<T, E> {
  switch (action.type) {
    case 'reset':
      return { items: [], nextCursor: null, hasMore: false, loading: true, error: null, generation: state.generation + 1 };
    case 'request':
      return { ...state, loading: true, error: null };
    case 'page': {
      if (action.generation !== state.generation) return state;
      const next = action.page.pagination.next_cursor;
      const hasMore = next !== null && next !== undefined && action.page.pagination.has_more !== false;
      return { ...state, items: [...state.items, ...action.page.data], nextCursor: hasMore ? next : null, hasMore, loading: false };
    }
    case 'failed':
      if (action.generation !== state.generation) return state;
      return { ...state, loading: false, error: action.error };
    case 'prepend':
      return { ...state, items: prependNew(state.items, action.items, action.key) };
    case 'replace':
      return { ...state, items: state.items.map((item) => (action.key(item) === action.key(action.item) ? action.item : item)) };
    case 'remove':
      return { ...state, items: state.items.filter((item) => action.key(item) !== action.id) };
  }
}

/**
 * `incoming` (newest first) ahead of the records already shown, each id once: a record already
 * shown keeps its place.
 */
export function prependNew<T>(shown: readonly T[], incoming: readonly T[], key: (item: T) => string): T[] {
  const known = new Set(shown.map(key));
  const fresh: T[] = [];
  const seen = new Set<string>();
  for (const item of incoming) {
    const id = key(item);
    if (known.has(id) || seen.has(id)) continue;
    seen.add(id);
    fresh.push(item);
  }
  return fresh.length ? [...fresh, ...shown] : [...shown];
}
