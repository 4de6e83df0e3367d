import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { ApiError, messageOf } from './api';
import { initialPaging, pagingReducer, type PageLike, type PagingState } from './lib/paging';

export interface PagedList<T extends { id: string }> extends PagingState<T, ApiError | Error> {
  more: () => void;
  reload: () => void;
  /** Newest first, ahead of the rows shown; ids already shown are skipped. */
  prepend: (items: readonly T[]) => void;
  replace: (item: T) => void;
  remove: (id: string) => void;
}

const byId = (item: { id: string }) => item.id;

/**
 * A cursor-paged list: the first page whenever `key` (the filters) changes, the next one on
 * `more()`. Replies to superseded requests are dropped.
 */
export function usePagedList<T extends { id: string }>(
  key: string,
  load: (cursor: string | undefined) => Promise<PageLike<T>>,
): PagedList<T> {
  const [state, dispatch] = useReducer(pagingReducer<T, ApiError | Error>, undefined, () => initialPaging<T, ApiError | Error>());
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  const generationRef = useRef(0);
  const [reloads, setReloads] = useState(0);

  const fetchPage = useCallback((generation: number, cursor: string | undefined) => {
    loadRef.current(cursor).then(
      (page) => dispatch({ type: 'page', generation, page }),
      (error: unknown) => dispatch({ type: 'failed', generation, error: error instanceof Error ? error : new Error(messageOf(error)) }),
    );
  }, []);

  useEffect(() => {
    dispatch({ type: 'reset' });
    generationRef.current += 1;
    fetchPage(generationRef.current, undefined);
  }, [key, reloads, fetchPage]);

  const { nextCursor, loading } = state;
  const more = useCallback(() => {
    if (!nextCursor || loading) return;
    dispatch({ type: 'request' });
    fetchPage(generationRef.current, nextCursor);
  }, [nextCursor, loading, fetchPage]);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  const prepend = useCallback((items: readonly T[]) => dispatch({ type: 'prepend', items, key: byId }), []);
  const replace = useCallback((item: T) => dispatch({ type: 'replace', item, key: byId }), []);
  const remove = useCallback((id: string) => dispatch({ type: 'remove', id, key: byId }), []);
  return { ...state, more, reload, prepend, replace, remove };
}

/** `value`, once it has stopped changing for `ms` milliseconds. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Sets the document title for a page. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Buyer intelligence console`;
  }, [title]);
}
