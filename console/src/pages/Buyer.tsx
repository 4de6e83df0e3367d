import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { api, seg } from '../api';
import { SignalList } from '../components/SignalList';
import { Badge, ErrorNotice, PagingFooter } from '../components/ui';
import { usePagedList, useTitle } from '../hooks';
import type { Buyer, BuyerEvaluation, CriterionVerdict, Page, Signal } from '../types';
import { buyerName, MatchBadges } from './Buyers';

function Facts({ rows }: { rows: [string, string | number | undefined][] }) {
  return (
    <dl className="facts">
      {rows
        .filter(([, value]) => value !== undefined && value !== '' && value !== 0)
        .map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

function sourceText(verdict: CriterionVerdict): string {
  if (!verdict.source) return '—';
  return verdict.source.type === 'activity'
    ? `activity ${verdict.source.activity_id ?? ''}`.trim()
    : `enrichment ${verdict.source.provider ?? ''}`.trim();
}

function EvaluationTable({ title, part }: { title: string; part: BuyerEvaluation['icp'] }) {
  return (
    <section aria-labelledby={`eval-${title}`}>
      <h3 id={`eval-${title}`}>
        {title}: {part.matched ? 'matched' : 'not matched'}
        {part.profile?.name ? ` (${part.matched ? '' : 'closest: '}${part.profile.name})` : ''}
      </h3>
      {part.reasoning ? <p>{part.reasoning}</p> : null}
      {part.criteria.length ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{title} criteria</caption>
            <thead>
              <tr>
                <th scope="col">Criterion</th>
                <th scope="col">Result</th>
                <th scope="col">Expected</th>
                <th scope="col">Value checked</th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {part.criteria.map((verdict, index) => (
                <tr key={`${verdict.kind}-${index}`}>
                  <th scope="row">{verdict.label || verdict.kind}</th>
                  <td>
                    <Badge tone={verdict.status}>{verdict.status}</Badge>
                  </td>
                  <td>{verdict.expected}</td>
                  <td>{verdict.value || '—'}</td>
                  <td>{sourceText(verdict)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No criteria were checked.</p>
      )}
    </section>
  );
}

export function BuyerPage() {
  const { id = '' } = useParams();
  const [buyer, setBuyer] = useState<Buyer | null>(null);
  const [evaluation, setEvaluation] = useState<BuyerEvaluation | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [evaluationError, setEvaluationError] = useState<unknown>(null);
  useTitle(buyer ? buyerName(buyer) : 'Buyer');

  useEffect(() => {
    let live = true;
    setBuyer(null);
    setEvaluation(null);
    api.get<Buyer>(`/buyers/${seg(id)}`).then(
      (answer) => live && setBuyer(answer),
      (caught: unknown) => live && setError(caught),
    );
    api.get<BuyerEvaluation>(`/buyers/${seg(id)}/evaluation`).then(
      (answer) => live && setEvaluation(answer),
      (caught: unknown) => live && setEvaluationError(caught),
    );
    return () => {
      live = false;
    };
  }, [id]);
  const signals = usePagedList<Signal>(id, (cursor) => api.get<Page<Signal>>('/signals', { buyer_id: id, cursor }));

  const contact = buyer?.contact_info;
  const company = buyer?.company_info;
  return (
    <>
      <p>
        <Link to="/buyers">← Buyers</Link>
      </p>
      <h1>{buyer ? buyerName(buyer) : 'Buyer'}</h1>
      <ErrorNotice error={error} />
      {buyer && contact && company ? (
        <>
          <p className="badges">
            <MatchBadges buyer={buyer} />
          </p>
          <div className="columns">
            <section aria-labelledby="contact-heading">
              <h2 id="contact-heading">Contact</h2>
              <Facts
                rows={[
                  ['Title', contact.role.title],
                  ['Function', contact.role.function],
                  ['Seniority', contact.role.seniority],
                  ['Email', contact.email.work],
                  ['Phone', contact.phone.mobile],
                  ['LinkedIn', contact.social.linkedin],
                  ['Location', [contact.location.city, contact.location.state, contact.location.country].filter(Boolean).join(', ')],
                ]}
              />
            </section>
            <section aria-labelledby="company-heading">
              <h2 id="company-heading">Company</h2>
              <Facts
                rows={[
                  ['Name', company.name],
                  ['Website', company.website],
                  ['Industries', company.industries.join(', ')],
                  ['Employees', company.employee_count],
                  ['Founded', company.founded_year],
                  ['Annual revenue', company.annual_revenue],
                  ['Funding stage', company.latest_funding_stage],
                  ['Location', [company.location.city, company.location.state, company.location.country].filter(Boolean).join(', ')],
                ]}
              />
            </section>
          </div>
        </>
      ) : null}
      <section aria-labelledby="evaluation-heading">
        <h2 id="evaluation-heading">Evaluation</h2>
        <ErrorNotice error={evaluationError} />
        {evaluation ? (
          <>
            <EvaluationTable title="ICP" part={evaluation.icp} />
            <EvaluationTable title="Persona" part={evaluation.persona} />
          </>
        ) : null}
      </section>
      <section aria-labelledby="signals-heading">
        <h2 id="signals-heading">Signals</h2>
        <SignalList signals={signals.items} label="Signals of this Buyer" />
        <PagingFooter list={signals} noun="Signals" />
      </section>
    </>
  );
}
