import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Layout } from './components/Layout';
import { ActivitiesPage } from './pages/Activities';
import { BuyerPage } from './pages/Buyer';
import { BuyersPage } from './pages/Buyers';
import { KnowledgeBasePage } from './pages/KnowledgeBase';
import { SettingsPage } from './pages/Settings';
import { SignalsPage } from './pages/Signals';
import { SignInPage } from './pages/SignIn';
import { SessionProvider, useSession } from './session';

/** Pages that need a session: sign-in first, then back where the user was going. */
function RequireSession() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <p role="status">Loading…</p>;
  if (status === 'signed-out') return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  return <Layout />;
}

export function App() {
  return (
    <BrowserRouter basename="/console">
      <SessionProvider>
        <Routes>
          <Route path="/sign-in" element={<SignInPage />} />
          <Route element={<RequireSession />}>
            <Route index element={<Navigate to="/buyers" replace />} />
            <Route path="/buyers" element={<BuyersPage />} />
            <Route path="/buyers/:id" element={<BuyerPage />} />
            <Route path="/signals" element={<SignalsPage />} />
            <Route path="/kb" element={<Navigate to="/kb/icps" replace />} />
            <Route path="/kb/:resource" element={<KnowledgeBasePage />} />
            <Route path="/activities" element={<ActivitiesPage />} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route path="*" element={<Navigate to="/buyers" replace />} />
          </Route>
        </Routes>
      </SessionProvider>
    </BrowserRouter>
  );
}
