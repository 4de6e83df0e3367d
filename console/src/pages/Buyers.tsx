import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api';
import { Badge, PagingFooter } from '../components/ui';
import { usePagedList, useTitle } from '../hooks';
import { localToIso, snippet } from '../lib/query';
import type { Buyer, Page } from '../types';

/** The filters `GET /buyers` takes (openapi.json), as the form holds them. */
interface BuyerFilters {
  created_after: string;
  created_before: string;
  sort_order: '' | 'asc' | 'desc';
}

const NO_FILTERS: BuyerFilters = { created_after: '', created_before: '', sort_order: '' };
type Match = 'all' | 'icp' | 'persona' | 'both';

export function buyerName(buyer: Buyer): string {
  const { first, middle, last } = buyer.contact_info.name;
  return [first, middle, last].filter(Boolean).join(' ') || buyer.contact_info.email.work || buyer.id;
}

function matches(buyer: Buyer, match: Match): boolean {
  const icp = buyer.company_info.is_icp;
  const persona = buyer.contact_info.is_persona;
  return match === 'all' || (match === 'icp' && icp) || (match === 'persona' && persona) || (match === 'both' && icp && persona);
}

export function MatchBadges({ buyer }: { buyer: Buyer }) {
  return (
    <>
      {buyer.company_info.is_icp ? <Badge tone="pass">ICP: {buyer.company_info.icp_name || buyer.company_info.icp_id}</Badge> : null}
      {buyer.contact_info.is_persona ? (
        <Badge tone="pass">Persona: {buyer.contact_info.persona_name || buyer.contact_info.persona_id}</Badge>
      ) : null}
    </>
  );
}

export function BuyersPage() {
  useTitle('Buyers');
  const [draft, setDraft] = useState<BuyerFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<BuyerFilters>(NO_FILTERS);
  const [match, setMatch] = useState<Match>('all');
  const query = {
    created_after: localToIso(filters.created_after),
    created_before: localToIso(filters.created_before),
    sort_order: filters.sort_order,
  };
  const list = usePagedList<Buyer>(JSON.stringify(query), (cursor) => api.get<Page<Buyer>>('/buyers', { ...query, cursor }));
  const shown = list.items.filter((buyer) => matches(buyer, match));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
  };
  const set = (name: keyof BuyerFilters) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });

  return (
    <>
      <h1>Buyers</h1>
      <form className="filters" onSubmit={apply} aria-label="Buyer filters">
        <div className="field">
          <label htmlFor="created_after">Created from</label>
          <input id="created_after" type="datetime-local" value={draft.created_after} onChange={set('created_after')} />
        </div>
        <div className="field">
          <label htmlFor="created_before">Created before</label>
          <input id="created_before" type="datetime-local" value={draft.created_before} onChange={set('created_before')} />
        </div>
        <div className="field">
          <label htmlFor="sort_order">Order</label>
          <select id="sort_order" value={draft.sort_order} onChange={set('sort_order')}>
            <option value="">Newest first</option>
            <option value="asc">Oldest first</option>
          </select>
        </div>
        <button type="submit">Apply filters</button>
        <div className="field">
          <label htmlFor="match">Matched (among the Buyers loaded)</label>
          <select id="match" value={match} onChange={(event) => setMatch(event.target.value as Match)}>
            <option value="all">All</option>
            <option value="icp">ICP matched</option>
            <option value="persona">Persona matched</option>
            <option value="both">ICP and Persona matched</option>
          </select>
        </div>
      </form>
      <ul className="cards" aria-label="Buyers">
        {shown.map((buyer) => (
          <li key={buyer.id} className="card">
            <h2 className="card-title">
              <Link to={`/buyers/${encodeURIComponent(buyer.id)}`}>{buyerName(buyer)}</Link>
            </h2>
            <p>
              {buyer.contact_info.role.title || 'No title'} · {buyer.company_info.name || buyer.company_info.website || 'Unknown company'}
            </p>
            <p className="badges">
              <MatchBadges buyer={buyer} />
            </p>
            {buyer.company_info.icp_reasoning || buyer.contact_info.persona_reasoning ? (
              <p className="muted">
                {snippet([buyer.company_info.icp_reasoning, buyer.contact_info.persona_reasoning].filter(Boolean).join(' '))}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <PagingFooter list={list} noun="Buyers" />
    </>
  );
}
