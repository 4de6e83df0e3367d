import { useEffect, useRef, useState } from 'react';
import { api, messageOf } from '../api';
import { SignalList } from '../components/SignalList';
import { PagingFooter } from '../components/ui';
import { usePagedList, useTitle } from '../hooks';
import { apiTimestamp } from '../lib/query';
import { humanize, signalMatches, type SignalFilters } from '../lib/signals';
import { SIGNAL_TYPES, TRIGGERS, type EventPage, type Page, type Signal, type SignalType } from '../types';

const POLL_MS = 2000;

/**
 * Follows `GET /events?type=signal.created` from now on: pages while `next_cursor` is a string,
 * then polls again from `resume_cursor` every two seconds, handing each page's Signals (oldest
 * first, as the feed lists them) to `onSignals`.
 */
function useSignalEvents(onSignals: (signals: Signal[]) => void): string {
  const [problem, setProblem] = useState('');
  const handler = useRef(onSignals);
  useEffect(() => {
    handler.current = onSignals;
  });
  useEffect(() => {
    // Whole seconds, as the API takes them: the opening second's Signals may come again, and the list skips those it shows.
    const createdAfter = apiTimestamp(new Date());
    let cursor: string | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const controller = new AbortController();
    const poll = async () => {
      let delay = POLL_MS;
      try {
        const page = await api.get<EventPage>(
          '/events',
          { type: 'signal.created', created_after: createdAfter, cursor, limit: 100 },
          controller.signal,
        );
        const signals = page.data.filter((event) => event.type === 'signal.created').map((event) => event.data.object as Signal);
        if (signals.length) handler.current(signals);
        cursor = page.pagination.next_cursor ?? page.pagination.resume_cursor;
        if (page.pagination.next_cursor) delay = 0;
        setProblem('');
      } catch (caught) {
        if (stopped) return;
        setProblem(messageOf(caught));
      }
      if (!stopped) timer = setTimeout(() => void poll(), delay);
    };
    void poll();
    return () => {
      stopped = true;
      controller.abort();
      clearTimeout(timer);
    };
  }, []);
  return problem;
}

export function SignalsPage() {
  useTitle('Signals');
  const [filters, setFilters] = useState<SignalFilters>({});
  const list = usePagedList<Signal>(JSON.stringify(filters), (cursor) => api.get<Page<Signal>>('/signals', { ...filters, cursor }));
  const filtersRef = useRef(filters);
  useEffect(() => {
    filtersRef.current = filters;
  });
  const { prepend } = list;
  const problem = useSignalEvents((signals) => prepend(signals.filter((signal) => signalMatches(signal, filtersRef.current)).reverse()));
  const triggers = filters.type ? TRIGGERS[filters.type as SignalType] : [];

  return (
    <>
      <h1>Signals</h1>
      <form className="filters" aria-label="Signal filters" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor="signal-type">Type</label>
          <select id="signal-type" value={filters.type ?? ''} onChange={(event) => setFilters({ type: event.target.value || undefined })}>
            <option value="">All types</option>
            {SIGNAL_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="signal-trigger">Trigger</label>
          <select
            id="signal-trigger"
            value={filters.trigger ?? ''}
            disabled={!filters.type}
            onChange={(event) => setFilters({ ...filters, trigger: event.target.value || undefined })}
          >
            <option value="">{filters.type ? 'All triggers' : 'Choose a type first'}</option>
            {triggers.map((trigger) => (
              <option key={trigger} value={trigger}>
                {humanize(trigger)}
              </option>
            ))}
          </select>
        </div>
      </form>
      <p role="status" className="muted">
        {problem ? `Live updates paused: ${problem}` : 'Live: new Signals appear here as they arrive.'}
      </p>
      <SignalList signals={list.items} label="Signal feed" showBuyer />
      <PagingFooter list={list} noun="Signals" />
    </>
  );
}
