import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiError, messageOf } from '../api';
import type { PagedList } from '../hooks';

/** An error answer, as an alert. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  return (
    <p role="alert" className="error">
      {messageOf(error)}
      {requestId ? <span className="muted"> (request {requestId})</span> : null}
    </p>
  );
}

/** The "More" button and the list's loading and error states. */
export function PagingFooter<T extends { id: string }>({ list, noun }: { list: PagedList<T>; noun: string }) {
  return (
    <div className="paging">
      <ErrorNotice error={list.error} />
      {list.loading ? <p role="status">Loading…</p> : list.items.length === 0 && !list.error ? <p role="status">No {noun} yet.</p> : null}
      {list.hasMore ? (
        <button type="button" onClick={list.more} disabled={list.loading}>
          More
        </button>
      ) : null}
    </div>
  );
}

/**
 * A button that asks before acting: a modal dialog with the question, "Confirm" and "Cancel".
 */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  className,
}: {
  label: string;
  question: string;
  onConfirm: () => Promise<void> | void;
  className?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      dialog.current?.close();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className={className ?? 'danger'} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} className="confirm">
        <h2 id={titleId}>{question}</h2>
        <ErrorNotice error={error} />
        <div className="actions">
          <button type="button" className="danger" onClick={() => void confirm()} disabled={busy}>
            Confirm
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}

/** A secret shown once, with a copy button and a warning. */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      ref.current?.select();
    }
  };
  return (
    <section className="secret" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{label}</h3>
      <p className="warning">Copy it now: it is shown only this once and cannot be retrieved later.</p>
      <label htmlFor={id}>Secret</label>
      <div className="row">
        <input id={id} ref={ref} readOnly value={secret} onFocus={(event) => event.currentTarget.select()} className="mono" />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
      <p role="status">{copied ? 'Copied to the clipboard.' : ''}</p>
    </section>
  );
}

/** A labelled field: label, control, hint and the error the API placed on it. */
/** What a form control inside a `Field` carries: its id, and its error and hint for assistive technology. */
export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A labelled form control with its hint and error. `children` renders the control from the
 * props it must carry (`<input {...control} />`), so its id and descriptions always match the
 * label, hint and error shown here.
 */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described || undefined })}
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Badge({ children, tone }: { children: ReactNode; tone?: 'pass' | 'fail' | 'unknown' | 'info' }) {
  return <span className={`badge ${tone ?? 'info'}`}>{children}</span>;
}
