import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, NavLink, useParams } from 'react-router-dom';
import { ApiError, api, seg } from '../api';
import { ProfileAssist } from '../components/ProfileAssist';
import { ConfirmButton, ErrorNotice, Field, PagingFooter } from '../components/ui';
import { usePagedList, useTitle } from '../hooks';
import { placeError, type PlacedError } from '../lib/field-errors';
import {
  bodyFor,
  initialValues,
  KB_RESOURCES,
  kbResource,
  type FormValues,
  type KbFieldDecl,
  type KbResourceDecl,
} from '../lib/kb-resources';
import { snippet } from '../lib/query';
import type { KbRecord, Page } from '../types';

/** The param segments that stand for another field: the criteria are read from the description. */
const ALIASES = { criteria: 'description' };

function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: KbFieldDecl;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const id = `kb-${field.name}`;
  return (
    <Field id={id} label={field.label} hint={field.hint} error={error}>
      {(control) => {
        const common = { ...control, name: field.name, value, required: field.required, maxLength: field.maxLength };
        return field.input === 'textarea' ? (
          <textarea {...common} rows={6} onChange={(event) => onChange(event.target.value)} />
        ) : (
          <input {...common} type={field.input === 'url' ? 'url' : 'text'} onChange={(event) => onChange(event.target.value)} />
        );
      }}
    </Field>
  );
}

/** One form for every resource: create, or edit `record`; the API's errors placed at their field. */
function KbForm({
  resource,
  record,
  onSaved,
  onCancel,
}: {
  resource: KbResourceDecl;
  record: KbRecord | null;
  onSaved: (record: KbRecord, created: boolean) => void;
  onCancel: () => void;
}) {
  const original = record ? initialValues(resource, record) : undefined;
  const [values, setValues] = useState<FormValues>(() => initialValues(resource, record ?? undefined));
  const [error, setError] = useState<PlacedError | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldNames = resource.fields.map((field) => field.name);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = bodyFor(resource, values, original);
      const saved = record
        ? await api.patch<KbRecord>(`/kb/${resource.path}/${seg(record.id)}`, body)
        : await api.post<KbRecord>(`/kb/${resource.path}`, body);
      onSaved(saved, !record);
      if (!record) setValues(initialValues(resource));
    } catch (caught) {
      setError(caught instanceof ApiError ? placeError(caught, fieldNames, ALIASES) : { field: null, message: String(caught) });
    } finally {
      setBusy(false);
    }
  };
  const headingId = `kb-form-${resource.path}`;
  return (
    <form className="kb-form" onSubmit={(event) => void submit(event)} aria-labelledby={headingId} noValidate>
      <h2 id={headingId}>{record ? `Edit ${resource.singular} ${record.name}` : `New ${resource.singular}`}</h2>
      {error && error.field === null ? (
        <p role="alert" className="error">
          {error.message}
        </p>
      ) : null}
      {error && error.field !== null ? (
        <p role="alert" className="visually-hidden">
          {error.message}
        </p>
      ) : null}
      {resource.fields.map((field) => (
        <FieldInput
          key={field.name}
          field={field}
          value={values[field.name] ?? ''}
          error={error?.field === field.name ? error.message : undefined}
          onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))}
        />
      ))}
      {resource.profile ? (
        <ProfileAssist path={resource.path as 'icps' | 'personas'} recordId={record?.id} description={values.description ?? ''} />
      ) : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {record ? 'Save' : 'Create'}
        </button>
        {record ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

function KbList({ resource }: { resource: KbResourceDecl }) {
  const list = usePagedList<KbRecord>(resource.path, (cursor) => api.get<Page<KbRecord>>(`/kb/${resource.path}`, { cursor }));
  const [editing, setEditing] = useState<KbRecord | null>(null);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState<unknown>(null);
  const extraColumns = [
    ...resource.fields.filter((field) => !['name', 'short_name', 'description'].includes(field.name)).map((field) => field.name),
    ...resource.computed,
  ];
  const label = (name: string) =>
    resource.fields.find((field) => field.name === name)?.label ?? (name === 'canonical_url' ? 'Canonical URL' : name);

  const remove = async (record: KbRecord) => {
    setError(null);
    await api.delete(`/kb/${resource.path}/${seg(record.id)}`);
    list.remove(record.id);
    if (editing?.id === record.id) setEditing(null);
    setNotice(`${resource.singular} ${record.name} deleted.`);
  };
  const saved = (record: KbRecord, created: boolean) => {
    if (created) list.prepend([record]);
    else list.replace(record);
    setEditing(null);
    setNotice(`${resource.singular} ${record.name} ${created ? 'created' : 'saved'}.`);
  };

  return (
    <>
      <p role="status" className="notice">
        {notice}
      </p>
      <ErrorNotice error={error} />
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">{resource.title}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Short name</th>
              {extraColumns.map((name) => (
                <th scope="col" key={name}>
                  {label(name)}
                </th>
              ))}
              <th scope="col">Description</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((record) => (
              <tr key={record.id}>
                <th scope="row">{record.name}</th>
                <td className="mono">{record.short_name}</td>
                {extraColumns.map((name) => (
                  <td key={name}>{typeof record[name] === 'string' ? record[name] : ''}</td>
                ))}
                <td>{snippet(typeof record.description === 'string' ? record.description : '', 120)}</td>
                <td className="actions">
                  <button type="button" onClick={() => setEditing(record)} aria-label={`Edit ${record.name}`}>
                    Edit
                  </button>
                  <ConfirmButton
                    label="Delete"
                    question={`Delete ${resource.singular} “${record.name}”?`}
                    onConfirm={() => remove(record)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <PagingFooter list={list} noun={resource.title} />
      <KbForm key={editing?.id ?? 'new'} resource={resource} record={editing} onSaved={saved} onCancel={() => setEditing(null)} />
    </>
  );
}

export function KnowledgeBasePage() {
  const { resource: path } = useParams();
  const resource = kbResource(path);
  useTitle(resource ? `${resource.title} · Knowledge base` : 'Knowledge base');
  useEffect(() => window.scrollTo(0, 0), [path]);
  if (!resource) return <Navigate to="/kb/icps" replace />;
  return (
    <>
      <h1>Knowledge base</h1>
      <nav aria-label="Knowledge base resources" className="tabs">
        <ul>
          {KB_RESOURCES.map((item) => (
            <li key={item.path}>
              <NavLink to={`/kb/${item.path}`}>{item.title}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <h2>{resource.title}</h2>
      <KbList key={resource.path} resource={resource} />
    </>
  );
}
