import { useState, type FormEvent } from 'react';
import { ApiError, api, seg } from '../api';
import { ConfirmButton, ErrorNotice, Field, PagingFooter, SecretOnce } from '../components/ui';
import { usePagedList, useTitle } from '../hooks';
import { fieldForParam } from '../lib/field-errors';
import { formatTime } from '../lib/query';
import type { ApiKey, ApiKeyWithSecret, Page, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '../types';

function ApiKeys() {
  const list = usePagedList<ApiKey>('api-keys', () =>
    api.get<Page<ApiKey>>('/api-keys').then((answer) => ({ data: answer.data, pagination: { next_cursor: null } })),
  );
  const [scope, setScope] = useState<'read' | 'write'>('read');
  const [created, setCreated] = useState<ApiKeyWithSecret | null>(null);
  const [error, setError] = useState<unknown>(null);
  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const key = await api.post<ApiKeyWithSecret>('/api-keys', { scope });
      setCreated(key);
      const { secret: _secret, ...shown } = key;
      list.prepend([shown]);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <form className="filters" onSubmit={(event) => void create(event)} aria-label="New API key">
        <div className="field">
          <label htmlFor="key-scope">Scope</label>
          <select id="key-scope" value={scope} onChange={(event) => setScope(event.target.value as 'read' | 'write')}>
            <option value="read">read</option>
            <option value="write">write</option>
          </select>
        </div>
        <button type="submit" className="primary">
          Create API key
        </button>
      </form>
      <ErrorNotice error={error} />
      {created ? (
        <SecretOnce label={`New ${created.scope} key ${created.id}`} secret={created.secret} onDone={() => setCreated(null)} />
      ) : null}
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Scope</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Revoked</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((key) => (
              <tr key={key.id}>
                <th scope="row" className="mono">
                  {key.id}
                </th>
                <td>{key.scope}</td>
                <td>{formatTime(key.created_at)}</td>
                <td>{formatTime(key.last_used_at)}</td>
                <td>{key.revoked_at ? formatTime(key.revoked_at) : 'Active'}</td>
                <td>
                  {key.revoked_at ? null : (
                    <ConfirmButton
                      label="Revoke"
                      question={`Revoke key ${key.id}? It stops working at once.`}
                      onConfirm={async () => list.replace(await api.delete<ApiKey>(`/api-keys/${seg(key.id)}`))}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <PagingFooter list={list} noun="API keys" />
    </section>
  );
}

function Deliveries({ endpoint, version }: { endpoint: WebhookEndpoint; version: number }) {
  const list = usePagedList<WebhookDelivery>(`${endpoint.id}:${version}`, (cursor) =>
    api.get<Page<WebhookDelivery>>(`/webhook-endpoints/${seg(endpoint.id)}/deliveries`, { cursor }),
  );
  return (
    <div className="table-wrap">
      <table>
        <caption>Deliveries to {endpoint.url}</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">Attempt</th>
            <th scope="col">Result</th>
            <th scope="col">Latency</th>
            <th scope="col">Next retry</th>
          </tr>
        </thead>
        <tbody>
          {list.items.map((delivery) => (
            <tr key={delivery.id}>
              <td>{formatTime(delivery.created_at)}</td>
              <td>
                {delivery.event_type}
                <div className="mono muted">{delivery.event_id ?? 'test'}</div>
              </td>
              <td>{delivery.attempt}</td>
              <td>
                {delivery.succeeded ? 'Succeeded' : 'Failed'} {delivery.status_code ?? ''} {delivery.error ?? ''}
              </td>
              <td>{delivery.latency_ms} ms</td>
              <td>{formatTime(delivery.next_retry_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <PagingFooter list={list} noun="deliveries" />
    </div>
  );
}

const ENDPOINT_FIELDS = ['url', 'enabled_events', 'description'];

function EndpointRow({
  endpoint,
  onChanged,
  onDeleted,
  onSecret,
}: {
  endpoint: WebhookEndpoint;
  onChanged: (endpoint: WebhookEndpoint) => void;
  onDeleted: () => void;
  onSecret: (endpoint: WebhookEndpointWithSecret) => void;
}) {
  const [open, setOpen] = useState(false);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  const act = async (action: () => Promise<void>) => {
    setError(null);
    setNotice('');
    try {
      await action();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <li className="card">
      <h3 className="card-title mono">{endpoint.url}</h3>
      <p>
        {endpoint.enabled ? 'Enabled' : `Disabled${endpoint.disabled_reason ? ` (${endpoint.disabled_reason})` : ''}`} · events:{' '}
        {endpoint.enabled_events.join(', ')}
        {endpoint.description ? ` · ${endpoint.description}` : ''}
      </p>
      <ErrorNotice error={error} />
      <p role="status">{notice}</p>
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            void act(async () =>
              onChanged(await api.patch<WebhookEndpoint>(`/webhook-endpoints/${seg(endpoint.id)}`, { enabled: !endpoint.enabled })),
            )
          }
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          onClick={() =>
            void act(async () =>
              onSecret(await api.post<WebhookEndpointWithSecret>(`/webhook-endpoints/${seg(endpoint.id)}/rotate-secret`)),
            )
          }
        >
          Rotate secret
        </button>
        <button
          type="button"
          onClick={() =>
            void act(async () => {
              const delivery = await api.post<WebhookDelivery>(`/webhook-endpoints/${seg(endpoint.id)}/test`);
              setNotice(
                `Test sent: ${delivery.succeeded ? 'succeeded' : 'failed'}${delivery.status_code ? ` (${delivery.status_code})` : ''}.`,
              );
              setVersion((n) => n + 1);
            })
          }
        >
          Send test
        </button>
        <button type="button" aria-expanded={open} onClick={() => setOpen((value) => !value)}>
          {open ? 'Hide deliveries' : 'Show deliveries'}
        </button>
        <ConfirmButton
          label="Delete"
          question={`Delete the endpoint ${endpoint.url}?`}
          onConfirm={async () => {
            await api.delete(`/webhook-endpoints/${seg(endpoint.id)}`);
            onDeleted();
          }}
        />
      </div>
      {open ? <Deliveries endpoint={endpoint} version={version} /> : null}
    </li>
  );
}

function WebhookEndpoints() {
  const list = usePagedList<WebhookEndpoint>('webhook-endpoints', (cursor) =>
    api.get<Page<WebhookEndpoint>>('/webhook-endpoints', { cursor }),
  );
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('signal.created');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);
  const [secret, setSecret] = useState<WebhookEndpointWithSecret | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const enabled_events = events.split(/[\s,]+/).filter(Boolean);
      const created = await api.post<WebhookEndpointWithSecret>('/webhook-endpoints', {
        url,
        enabled_events,
        ...(description ? { description } : {}),
      });
      setSecret(created);
      const { secret: _secret, ...shown } = created;
      list.prepend([shown]);
      setUrl('');
      setDescription('');
    } catch (caught) {
      setError(
        caught instanceof ApiError
          ? { field: fieldForParam(caught.param, ENDPOINT_FIELDS), message: caught.message }
          : { field: null, message: String(caught) },
      );
    }
  };
  const at = (field: string) => (error?.field === field ? error.message : undefined);
  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhook endpoints</h2>
      <form className="kb-form" onSubmit={(event) => void create(event)} aria-label="New webhook endpoint" noValidate>
        {error && error.field === null ? (
          <p role="alert" className="error">
            {error.message}
          </p>
        ) : null}
        <Field id="webhook-url" label="Endpoint URL" hint="An https:// URL on a public address" error={at('url')}>
          {(control) => <input {...control} type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />}
        </Field>
        <Field
          id="webhook-events"
          label="Enabled events"
          hint="Comma-separated: signal.created, buyer.*, kb.*, or *"
          error={at('enabled_events')}
        >
          {(control) => <input {...control} required value={events} onChange={(e) => setEvents(e.target.value)} />}
        </Field>
        <Field id="webhook-description" label="Endpoint description" error={at('description')}>
          {(control) => <input {...control} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <button type="submit" className="primary">
          Create endpoint
        </button>
      </form>
      {secret ? (
        <SecretOnce
          label={secret.url ? `Signing secret of ${secret.url}` : 'New signing secret'}
          secret={secret.secret}
          onDone={() => setSecret(null)}
        />
      ) : null}
      <ul className="cards" aria-label="Webhook endpoints">
        {list.items.map((endpoint) => (
          <EndpointRow
            key={endpoint.id}
            endpoint={endpoint}
            onChanged={list.replace}
            onDeleted={() => list.remove(endpoint.id)}
            onSecret={setSecret}
          />
        ))}
      </ul>
      <PagingFooter list={list} noun="webhook endpoints" />
    </section>
  );
}

export function SettingsPage() {
  useTitle('Settings');
  return (
    <>
      <h1>Settings</h1>
      <ApiKeys />
      <WebhookEndpoints />
    </>
  );
}
