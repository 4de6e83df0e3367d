import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError, request, setCsrfToken, setUnauthenticatedHandler } from './api';
import type { ConsoleUser, SessionAnswer } from './types';

/** Who is signed in: read from `GET /console/api/session` on load, set by signing in. */
interface SessionValue {
  status: 'loading' | 'signed-in' | 'signed-out';
  user: ConsoleUser | null;
  signIn: (email: string, password: string) => Promise<void>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<SessionValue['status']>('loading');
  const [user, setUser] = useState<ConsoleUser | null>(null);

  const accept = useCallback((answer: SessionAnswer) => {
    setCsrfToken(answer.csrf_token);
    setUser(answer.user);
    setStatus('signed-in');
  }, []);
  const forget = useCallback(() => {
    setCsrfToken(null);
    setUser(null);
    setStatus('signed-out');
  }, []);

  useEffect(() => {
    setUnauthenticatedHandler(forget);
    let live = true;
    request<SessionAnswer>('GET', '/session', { quiet401: true })
      .then((answer) => live && accept(answer))
      .catch(() => live && forget());
    return () => {
      live = false;
      setUnauthenticatedHandler(null);
    };
  }, [accept, forget]);

  const signIn = useCallback(
    async (email: string, password: string) =>
      accept(await request<SessionAnswer>('POST', '/session', { body: { email, password }, quiet401: true })),
    [accept],
  );
  const signOut = useCallback(async () => {
    try {
      await request<void>('DELETE', '/session', { quiet401: true });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) throw error;
    } finally {
      forget();
    }
  }, [forget]);

  const value = useMemo(() => ({ status, user, signIn, signOut }), [status, user, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
