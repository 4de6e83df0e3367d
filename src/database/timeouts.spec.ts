import { DATABASE_TIMEOUT_DEFAULTS } from '../config/config';
import { isQueryTimeout, pgTimeouts, statementTimeoutFor } from './timeouts';

describe('database timeouts', () => {
  it('has the server cancel a statement a little before the client gives up on it', () => {
    expect(statementTimeoutFor(5_000)).toBe(4_000);
    expect(statementTimeoutFor(16_000)).toBe(15_000);
    expect(statementTimeoutFor(2_000)).toBe(1_600);
    expect(statementTimeoutFor(1_000)).toBe(800);
  });

  it('bounds the API, the workers and the CLI by their workload', () => {
    expect(pgTimeouts(DATABASE_TIMEOUT_DEFAULTS, 'api')).toEqual({
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
      statement_timeout: 4_000,
    });
    expect(pgTimeouts(DATABASE_TIMEOUT_DEFAULTS, 'worker')).toEqual({
      connectionTimeoutMillis: 5_000,
      query_timeout: 16_000,
      statement_timeout: 15_000,
    });
    // Bulk seeds and imports: no client-side bound, the server's 15 s that a seed lifts per session.
    expect(pgTimeouts(DATABASE_TIMEOUT_DEFAULTS, 'cli')).toEqual({ connectionTimeoutMillis: 5_000, statement_timeout: 15_000 });
    expect(pgTimeouts({ connectTimeoutMs: 1_000, queryTimeoutMs: 3_000, workerQueryTimeoutMs: 30_000 }, 'api')).toEqual({
      connectionTimeoutMillis: 1_000,
      query_timeout: 3_000,
      statement_timeout: 2_400,
    });
  });

  it("recognises pg's client-side query timeout and nothing else", () => {
    expect(isQueryTimeout(new Error('Query read timeout'))).toBe(true);
    expect(isQueryTimeout(new Error('canceling statement due to statement timeout'))).toBe(false);
    expect(isQueryTimeout({ message: 'Query read timeout' })).toBe(false);
    expect(isQueryTimeout(undefined)).toBe(false);
  });
});
