import { Link } from 'react-router-dom';
import { humanize, signalSummary, signalTrigger } from '../lib/signals';
import { formatTime } from '../lib/query';
import type { Signal } from '../types';

/** Signals as a timeline: when, type and trigger, what it was about, and (optionally) whose. */
export function SignalList({ signals, label, showBuyer }: { signals: readonly Signal[]; label: string; showBuyer?: boolean }) {
  return (
    <ol className="timeline" aria-label={label}>
      {signals.map((signal) => (
        <li key={signal.id}>
          <time dateTime={signal.captured_at}>{formatTime(signal.captured_at)}</time> <span className="badge info">{signal.type}</span>{' '}
          <strong>{humanize(signalTrigger(signal))}</strong> {signalSummary(signal)}
          {showBuyer ? (
            <>
              {' · '}
              <Link to={`/buyers/${encodeURIComponent(signal.buyer_id)}`}>{signal.buyer_id}</Link>
            </>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
