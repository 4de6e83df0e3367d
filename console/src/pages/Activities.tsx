import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api';
import { PagingFooter } from '../components/ui';
import { usePagedList, useTitle } from '../hooks';
import { formatTime } from '../lib/query';
import { humanize } from '../lib/signals';
import { SIGNAL_TYPES, TRIGGERS, type ActivityNearMiss, type ActivityStatus, type Page, type SignalType } from '../types';

interface ActivityFilters {
  status?: string;
  discard_reason?: string;
  type?: string;
  trigger?: string;
}

const STATUSES = ['queued', 'processed', 'discarded'];
const DISCARD_REASONS = ['unresolved_identity', 'excluded_company', 'no_target_match'];

/** "Closest: Target Page tpg_… (example.com/pricing); differs in host and path". */
export function nearMissText(nearMiss: ActivityNearMiss): string {
  if (!nearMiss) return '';
  const target = nearMiss.target_page_id
    ? `Target Page ${nearMiss.target_page_id}`
    : nearMiss.target_form_id
      ? `Target Form ${nearMiss.target_form_id}`
      : 'a target';
  const parts = nearMiss.differences;
  const differs = parts.length
    ? `; differs in ${parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0]}`
    : '';
  return `Closest: ${target} (${nearMiss.url})${differs}`;
}

function Select({
  id,
  label,
  value,
  options,
  onChange,
  disabled,
}: {
  id: string;
  label: string;
  value?: string;
  options: readonly string[];
  onChange: (value?: string) => void;
  disabled?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} disabled={disabled} onChange={(event) => onChange(event.target.value || undefined)}>
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {humanize(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ActivitiesPage() {
  useTitle('Activities');
  const [filters, setFilters] = useState<ActivityFilters>({});
  const list = usePagedList<ActivityStatus>(JSON.stringify(filters), (cursor) =>
    api.get<Page<ActivityStatus>>('/activities', { ...filters, sort_order: 'desc', cursor }),
  );
  return (
    <>
      <h1>Activities</h1>
      <form className="filters" aria-label="Activity filters" onSubmit={(event) => event.preventDefault()}>
        <Select
          id="activity-status"
          label="Status"
          value={filters.status}
          options={STATUSES}
          onChange={(status) => setFilters({ ...filters, status })}
        />
        <Select
          id="activity-discard-reason"
          label="Discard reason"
          value={filters.discard_reason}
          options={DISCARD_REASONS}
          onChange={(discard_reason) => setFilters({ ...filters, discard_reason })}
        />
        <Select
          id="activity-type"
          label="Type"
          value={filters.type}
          options={SIGNAL_TYPES}
          onChange={(type) => setFilters({ ...filters, type, trigger: undefined })}
        />
        <Select
          id="activity-trigger"
          label="Trigger"
          value={filters.trigger}
          disabled={!filters.type}
          options={filters.type ? TRIGGERS[filters.type as SignalType] : []}
          onChange={(trigger) => setFilters({ ...filters, trigger })}
        />
      </form>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Recent activities</caption>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Type and trigger</th>
              <th scope="col">Status</th>
              <th scope="col">Discard reason</th>
              <th scope="col">Near miss</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((activity) => (
              <tr key={activity.id}>
                <td>
                  <time dateTime={activity.received_at}>{formatTime(activity.received_at)}</time>
                  <div className="mono muted">{activity.id}</div>
                </td>
                <td>
                  {activity.type} · {humanize(activity.trigger)}
                </td>
                <td>{activity.status}</td>
                <td>{activity.discard_reason ? humanize(activity.discard_reason) : '—'}</td>
                <td>{nearMissText(activity.near_miss) || '—'}</td>
                <td>
                  {activity.buyer_id ? <Link to={`/buyers/${encodeURIComponent(activity.buyer_id)}`}>Buyer {activity.buyer_id}</Link> : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <PagingFooter list={list} noun="activities" />
    </>
  );
}
