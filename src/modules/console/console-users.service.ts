import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { formatTimestamp, isoOrNull } from '../../shared/domain/clock';
import { formatId, ID_PREFIXES, IdGenerator, parseId } from '../../shared/domain/ids';
import { ConsoleSession, ConsoleSessionAuthenticator } from '../../shared/interface/http/request-context';
import { ID_GENERATOR } from '../../shared/shared.module';
import { OperationError, WorkspacesService } from '../workspaces/workspaces.service';
import { generatePassword, hashPassword, UNUSABLE_PASSWORD_HASH, verifyPassword } from './console-password';
import { csrfTokenFor, hashSessionToken, newSessionToken, readSessionCookie } from './console-session-cookie';

/** A new user as `user create` prints it: the password is shown this once and stored only hashed. */
export interface CreatedConsoleUser {
  user_id: string;
  email: string;
  workspace_id: string;
  password: string;
}

export interface ConsoleUserSummary {
  user_id: string;
  email: string;
  created_at: string;
  disabled_at: string | null;
}

/** A new session: its token goes into the cookie, never anywhere else. */
export interface SignedIn {
  token: string;
  session: ConsoleSession;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The email as stored and looked up: trimmed, lower case. */
export function normaliseEmail(email: unknown): string {
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

interface SessionRow {
  user_id: string;
  email: string;
  workspace_id: string;
  workspace_name: string;
  created_at: Date;
  last_seen_at: Date;
}

/**
 * Console users (each in one workspace) and their sessions (ADR 0058). Sessions live in
 * PostgreSQL, keyed by the SHA-256 of their token, so revoking a user ends them for every
 * process at once: a session is only valid while its user is enabled, checked on every request.
 */
@Injectable()
export class ConsoleUsersService implements ConsoleSessionAuthenticator {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly workspaces: WorkspacesService,
  ) {}

  async createUser(workspaceId: string, email: string): Promise<CreatedConsoleUser> {
    const workspace = await this.workspace(workspaceId);
    const normalised = normaliseEmail(email);
    if (!EMAIL.test(normalised) || normalised.length > 254) throw new OperationError('--email must be an email address');
    const password = generatePassword();
    const id = this.ids.next();
    const [inserted]: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO console_users (id, workspace_id, email, password_hash, created_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [id, workspace, normalised, await hashPassword(password)],
    );
    if (!inserted) throw new OperationError(`A console user with email ${normalised} exists already`);
    return {
      user_id: formatId(ID_PREFIXES.consoleUser, id),
      email: normalised,
      workspace_id: formatId(ID_PREFIXES.workspace, workspace),
      password,
    };
  }

  /** A workspace's users, oldest first, disabled ones included. */
  async listUsers(workspaceId: string): Promise<ConsoleUserSummary[]> {
    const workspace = await this.workspace(workspaceId);
    const rows: Array<{ id: string; email: string; created_at: Date; disabled_at: Date | null }> = await this.dataSource.query(
      `SELECT id, email, created_at, disabled_at FROM console_users WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspace],
    );
    return rows.map((row) => ({
      user_id: formatId(ID_PREFIXES.consoleUser, row.id),
      email: row.email,
      created_at: isoOrNull(row.created_at)!,
      disabled_at: isoOrNull(row.disabled_at),
    }));
  }

  /** Disables a user and ends their sessions at once; revoking a disabled user succeeds again. */
  async revokeUser(userId: string): Promise<{ user_id: string; revoked: true }> {
    const parsed = parseId(ID_PREFIXES.consoleUser, userId);
    if (parsed.kind !== 'ok') throw new OperationError(`No console user ${String(userId)}`);
    const affected = await this.dataSource.transaction(async (manager) => {
      const [, count]: [unknown, number] = await manager.query(
        `UPDATE console_users SET disabled_at = COALESCE(disabled_at, now()) WHERE id = $1`,
        [parsed.value],
      );
      await manager.query(`DELETE FROM console_sessions WHERE user_id = $1`, [parsed.value]);
      return count;
    });
    if (affected === 0) throw new OperationError(`No console user ${userId}`);
    return { user_id: formatId(ID_PREFIXES.consoleUser, parsed.value), revoked: true };
  }

  /**
   * Checks an email and password and starts a new session. A wrong password, an unknown email
   * and a disabled user get the same answer, after the same work (an unknown email is checked
   * against a hash no password matches).
   */
  async signIn(email: string, password: string): Promise<SignedIn | null> {
    const rows: Array<{ id: string; password_hash: string }> = await this.dataSource.query(
      `SELECT id, password_hash FROM console_users WHERE email = $1 AND disabled_at IS NULL`,
      [normaliseEmail(email)],
    );
    const user = rows[0];
    const matches = await verifyPassword(password, user?.password_hash ?? UNUSABLE_PASSWORD_HASH);
    if (!user || !matches) return null;
    const token = newSessionToken();
    const tokenHash = hashSessionToken(token);
    const [row]: SessionRow[] = await this.dataSource.transaction(async (manager) => {
      // The user's sessions that have ended anyway go now; a sign-in is rare enough to pay for it.
      await manager.query(
        `DELETE FROM console_sessions WHERE user_id = $1 AND (last_seen_at <= now() - make_interval(mins => $2) OR created_at <= now() - make_interval(hours => $3))`,
        [user.id, this.config.console.sessionIdleMinutes, this.config.console.sessionMaxHours],
      );
      return manager.query(
        `WITH inserted AS (
           INSERT INTO console_sessions (token_hash, user_id, workspace_id, created_at, last_seen_at)
           SELECT $1, u.id, u.workspace_id, now(), now() FROM console_users u WHERE u.id = $2
           RETURNING user_id, workspace_id, created_at, last_seen_at)
         SELECT i.user_id, u.email, i.workspace_id, w.name AS workspace_name, i.created_at, i.last_seen_at
           FROM inserted i JOIN console_users u ON u.id = i.user_id JOIN workspaces w ON w.id = i.workspace_id`,
        [tokenHash, user.id],
      );
    });
    return { token, session: this.session(row, token, tokenHash) };
  }

  /**
   * The session the cookie names, if it is still valid (not idle past its limit, not past its
   * absolute limit, its user enabled); using it moves its idle limit on.
   */
  async authenticate(cookieHeader: string | undefined): Promise<ConsoleSession | null> {
    const token = readSessionCookie(cookieHeader);
    if (!token) return null;
    const tokenHash = hashSessionToken(token);
    const [rows]: [SessionRow[], number] = await this.dataSource.query(
      `UPDATE console_sessions s SET last_seen_at = now()
         FROM console_users u, workspaces w
        WHERE s.token_hash = $1 AND u.id = s.user_id AND w.id = s.workspace_id AND u.disabled_at IS NULL
          AND s.last_seen_at > now() - make_interval(mins => $2) AND s.created_at > now() - make_interval(hours => $3)
        RETURNING s.user_id, u.email, s.workspace_id, w.name AS workspace_name, s.created_at, s.last_seen_at`,
      [tokenHash, this.config.console.sessionIdleMinutes, this.config.console.sessionMaxHours],
    );
    return rows[0] ? this.session(rows[0], token, tokenHash) : null;
  }

  /** Ends a session: its row is deleted, so its cookie is worth nothing from now on. */
  async signOut(session: ConsoleSession): Promise<void> {
    await this.dataSource.query(`DELETE FROM console_sessions WHERE token_hash = $1`, [session.tokenHash]);
  }

  private session(row: SessionRow, token: string, tokenHash: Buffer): ConsoleSession {
    const idleEnd = new Date(row.last_seen_at).getTime() + this.config.console.sessionIdleMinutes * 60_000;
    const absoluteEnd = new Date(row.created_at).getTime() + this.config.console.sessionMaxHours * 3_600_000;
    return {
      userId: formatId(ID_PREFIXES.consoleUser, row.user_id),
      email: row.email,
      workspaceId: String(row.workspace_id),
      workspaceName: row.workspace_name,
      csrfToken: csrfTokenFor(token),
      expiresAt: new Date(Math.min(idleEnd, absoluteEnd)),
      tokenHash,
    };
  }

  private async workspace(workspaceId: string): Promise<string> {
    const parsed = parseId(ID_PREFIXES.workspace, workspaceId);
    if (parsed.kind !== 'ok' || !(await this.workspaces.exists(workspaceId)))
      throw new OperationError(`No workspace ${String(workspaceId)}`);
    return parsed.value;
  }
}

/** The console user's public view of a session, as `POST` and `GET /console/api/session` answer it. */
export function sessionView(session: ConsoleSession) {
  return {
    user: {
      id: session.userId,
      email: session.email,
      workspace_id: formatId(ID_PREFIXES.workspace, session.workspaceId),
      workspace_name: session.workspaceName,
    },
    csrf_token: session.csrfToken,
    expires_at: formatTimestamp(session.expiresAt),
  };
}
