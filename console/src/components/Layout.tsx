import { useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { messageOf } from '../api';
import { useSession } from '../session';

/** The signed-in frame: skip link, header with the workspace and "Sign out", the sidebar, the page. */
export function Layout() {
  const { user, signOut } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const [error, setError] = useState('');
  const location = useLocation();
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="sidebar"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <span className="brand">Buyer intelligence</span>
        <span className="workspace">{user ? `${user.workspace_name} · ${user.email}` : ''}</span>
        <button type="button" onClick={() => void signOut().catch((caught: unknown) => setError(messageOf(caught)))}>
          Sign out
        </button>
      </header>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <nav id="sidebar" className={menuOpen ? 'sidebar open' : 'sidebar'} aria-label="Console">
        <ul>
          <li>
            <NavLink to="/buyers">Buyers</NavLink>
          </li>
          <li>
            <NavLink to="/signals">Signals</NavLink>
          </li>
          <li>
            <NavLink to="/kb/icps" className={() => (location.pathname.startsWith('/kb/') ? 'active' : '')}>
              Knowledge base
            </NavLink>
          </li>
          <li>
            <NavLink to="/activities">Activities</NavLink>
          </li>
          <li>
            <NavLink to="/settings">Settings</NavLink>
          </li>
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
