import { useEffect, useState } from 'react';
import { api, seg } from '../api';
import { useDebounced } from '../hooks';
import { segmentText } from '../lib/spans';
import type { CriteriaReading, Criterion, SimulationExample, SimulationResult } from '../types';
import { ErrorNotice } from './ui';

function valueText(value: Criterion['values'][number]): string {
  return typeof value === 'string' ? value : `${value.kind}: ${value.value}`;
}

/** The description with the criteria's spans marked; each mark names its criteria. */
function Highlighted({ reading }: { reading: CriteriaReading }) {
  const segments = segmentText(
    reading.description,
    reading.criteria.map((criterion) => criterion.spans),
  );
  return (
    <p className="highlighted">
      {segments.map((segment) =>
        segment.marks.length ? (
          <mark key={segment.start} title={segment.marks.map((index) => reading.criteria[index].label).join(', ')}>
            {segment.text}
          </mark>
        ) : (
          <span key={segment.start}>{segment.text}</span>
        ),
      )}
    </p>
  );
}

function Examples({ title, examples }: { title: string; examples?: SimulationExample[] }) {
  if (!examples?.length) return null;
  return (
    <>
      <h4>{title}</h4>
      <ul>
        {examples.map((example, index) => (
          <li key={example.buyer_id ?? index}>
            {example.name || example.buyer_id} {example.company ? `(${example.company})` : ''}
            {example.criterion ? (
              <span className="muted">
                {' '}
                — {example.criterion.kind}: {example.criterion.buyer_value || 'unknown'}; now {example.criterion.now?.status ?? '—'}, with
                the draft {example.criterion.draft?.status ?? '—'}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * For ICPs and Personas: the criteria the evaluator reads from the description being typed
 * (debounced), and what saving it would change among recent Buyers ("What would change").
 */
export function ProfileAssist({ path, recordId, description }: { path: 'icps' | 'personas'; recordId?: string; description: string }) {
  const settled = useDebounced(description, 300);
  const [reading, setReading] = useState<CriteriaReading | null>(null);
  const [readingError, setReadingError] = useState<unknown>(null);
  const [simulation, setSimulation] = useState<SimulationResult | null>(null);
  const [simulating, setSimulating] = useState(false);
  const [simulationError, setSimulationError] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    if (!settled.trim()) {
      setReading(null);
      return;
    }
    api.post<CriteriaReading>(`/kb/${path}/criteria`, { description: settled }).then(
      (answer) => {
        if (!live) return;
        setReading(answer);
        setReadingError(null);
      },
      (caught: unknown) => live && setReadingError(caught),
    );
    return () => {
      live = false;
    };
  }, [path, settled]);
  useEffect(() => setSimulation(null), [description]);

  const simulate = async () => {
    setSimulating(true);
    setSimulationError(null);
    try {
      const route = recordId ? `/kb/${path}/${seg(recordId)}/simulate` : `/kb/${path}/simulate`;
      setSimulation(await api.post<SimulationResult>(route, { description }));
    } catch (caught) {
      setSimulationError(caught);
    } finally {
      setSimulating(false);
    }
  };

  return (
    <section className="assist" aria-labelledby="assist-heading">
      <h3 id="assist-heading">How the evaluator reads it</h3>
      <div aria-live="polite">
        <ErrorNotice error={readingError} />
        {reading ? (
          <>
            <Highlighted reading={reading} />
            {reading.criteria.length ? (
              <ul className="criteria" aria-label="Criteria">
                {reading.criteria.map((criterion, index) => (
                  <li key={index}>
                    <strong>{criterion.label}</strong> <span className="badge info">{criterion.kind}</span>
                    {criterion.negated ? <span className="badge fail">excluded</span> : null}
                    <div>Values: {criterion.values.map(valueText).join(', ') || '—'}</div>
                    <div>Expected: {criterion.expected}</div>
                    {criterion.assumed ? <div className="muted">Assumed: {criterion.assumed}</div> : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No criteria read yet.</p>
            )}
            {reading.assumptions.length ? (
              <ul className="muted" aria-label="Assumptions">
                {reading.assumptions.map((assumption) => (
                  <li key={assumption}>{assumption}</li>
                ))}
              </ul>
            ) : null}
          </>
        ) : (
          <p className="muted">Type a description to see its criteria.</p>
        )}
      </div>
      <button type="button" onClick={() => void simulate()} disabled={simulating || !description.trim()}>
        What would change
      </button>
      <div aria-live="polite">
        <ErrorNotice error={simulationError} />
        {simulating ? <p role="status">Evaluating recent Buyers…</p> : null}
        {simulation ? (
          <div className="simulation">
            <p>
              Of {simulation.evaluated ?? 0} recent Buyers, {simulation.matched_now ?? 0} match now and {simulation.matched_with_draft ?? 0}{' '}
              would match with this description: {simulation.entered ?? 0} would enter, {simulation.left ?? 0} would leave.
            </p>
            <Examples title="Would enter" examples={simulation.examples?.entered} />
            <Examples title="Would leave" examples={simulation.examples?.left} />
          </div>
        ) : null}
      </div>
    </section>
  );
}
