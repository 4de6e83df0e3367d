import { Injectable, PipeTransform } from '@nestjs/common';
import { AppError } from '../../application/app-error';
import { formatTimestamp } from '../../domain/clock';
import { parseId } from '../../domain/ids';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** Parses one query value (already known to be a single string); throws `invalid_parameter`. */
export type QueryParser = (value: string, name: string) => unknown;

export const limitParser: QueryParser = (value, name) => {
  if (!/^[0-9]{1,7}$/.test(value) || Number(value) < 1 || Number(value) > MAX_PAGE_SIZE) {
    throw AppError.invalidParameter(name, `${name} must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  }
  return Number(value);
};

/** Cursors are checked by the codec (→ `invalid_cursor`), not here. */
export const cursorParser: QueryParser = (value) => value;

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** Exactly `YYYY-MM-DDTHH:mm:ssZ`, and a real instant (no 31 February, no hour 24). */
export const timestampParser: QueryParser = (value, name) => {
  const match = TIMESTAMP.exec(value);
  const date = match ? new Date(value) : null;
  if (!match || !date || Number.isNaN(date.getTime()) || formatTimestamp(date) !== value) {
    throw AppError.invalidParameter(name, `${name} must be a UTC timestamp of the form YYYY-MM-DDTHH:mm:ssZ.`);
  }
  return date;
};

export const enumParser =
  (allowed: readonly string[]): QueryParser =>
  (value, name) => {
    if (!allowed.includes(value)) {
      throw AppError.invalidParameter(name, `${name} must be one of: ${allowed.join(', ')}.`);
    }
    return value;
  };

/** A public id with the given prefix, returned as its internal decimal form. */
export const prefixedIdParser =
  (prefix: string): QueryParser =>
  (value, name) => {
    const parsed = parseId(prefix, value);
    if (parsed.kind === 'malformed') throw AppError.invalidParameter(name, `${name} must be an id of the form ${prefix}<digits>.`);
    // A well-formed id that cannot exist matches nothing, like any unknown id.
    return parsed.kind === 'ok' ? parsed.value : '0';
  };

/**
 * Turns the raw query object into a typed query: only the declared names, each at most once,
 * each through its parser. Client input never reaches a `where` without passing here.
 */
@Injectable()
export class ListQueryPipe<T extends object> implements PipeTransform<unknown, T> {
  constructor(
    private readonly parsers: Readonly<Record<string, QueryParser>>,
    private readonly defaults: Partial<T> = {},
    /** Rules across parameters (e.g. `trigger` needs `type`); throws `invalid_parameter`. */
    private readonly check: (query: T) => void = () => undefined,
  ) {}

  transform(query: unknown): T {
    const result: Record<string, unknown> = { ...this.defaults };
    for (const [name, raw] of Object.entries((query ?? {}) as Record<string, unknown>)) {
      const parser = Object.prototype.hasOwnProperty.call(this.parsers, name) ? this.parsers[name] : undefined;
      if (!parser) throw AppError.invalidParameter(name, `Unknown query parameter ${JSON.stringify(name.slice(0, 100))}.`);
      if (typeof raw !== 'string') throw AppError.invalidParameter(name, `${name} may be given only once.`);
      result[name] = parser(raw, name);
    }
    this.check(result as T);
    return result as T;
  }
}

/**
 * The parameters every keyset list shares — `limit`, `cursor`, `sort_by` (one field) and
 * `sort_order` — with their defaults; a list adds its filters to them.
 */
export function keysetListQueryPipe<T extends object>(
  sortField: string,
  filters: Readonly<Record<string, QueryParser>>,
  check?: (query: T) => void,
): ListQueryPipe<T> {
  return new ListQueryPipe<T>(
    {
      limit: limitParser,
      cursor: cursorParser,
      ...filters,
      sort_by: enumParser([sortField]),
      sort_order: enumParser(['asc', 'desc']),
    },
    { limit: DEFAULT_PAGE_SIZE, sort_by: sortField, sort_order: 'desc' } as unknown as Partial<T>,
    check,
  );
}

export const kbListQueryPipe = new ListQueryPipe<{ limit: number; cursor?: string }>(
  { limit: limitParser, cursor: cursorParser },
  { limit: DEFAULT_PAGE_SIZE },
);

/** For a route that reads no query string (the auth guard, ADR 0064): any parameter is `invalid_parameter`, as on the lists. */
export const noQueryPipe = new ListQueryPipe<Record<string, never>>({});
