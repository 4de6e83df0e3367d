import { useState, type FormEvent } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { ApiError, messageOf } from '../api';
import { Field } from '../components/ui';
import { useTitle } from '../hooks';
import { useSession } from '../session';

function signInMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) {
    const wait = error.retryAfter;
    return wait
      ? `Too many sign-in attempts. Try again in ${wait >= 90 ? `${Math.ceil(wait / 60)} minutes` : `${wait} seconds`}.`
      : `Too many sign-in attempts. Try again later.`;
  }
  return messageOf(error);
}

export function SignInPage() {
  useTitle('Sign in');
  const { status, signIn } = useSession();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (status === 'signed-in') {
    const from = (location.state as { from?: string } | null)?.from;
    return <Navigate to={from && from !== '/sign-in' ? from : '/buyers'} replace />;
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email, password);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const param = error instanceof ApiError && error.status === 400 ? error.param : undefined;
  const fieldError = (name: string) => (param === name ? messageOf(error) : undefined);

  return (
    <main id="main" className="sign-in">
      <h1>Sign in</h1>
      <p className="muted">Buyer intelligence console</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        {error && !param ? (
          <p role="alert" className="error">
            {signInMessage(error)}
          </p>
        ) : null}
        <Field id="email" label="Email" error={fieldError('email')}>
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </Field>
        <Field id="password" label="Password" error={fieldError('password')}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="primary" disabled={busy || status === 'loading'}>
          Sign in
        </button>
      </form>
    </main>
  );
}
