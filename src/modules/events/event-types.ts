import { AppError } from '../../shared/application/app-error';
import { kbEventType } from '../../shared/domain/events';
import type { QueryParser } from '../../shared/interface/http/list-query.pipe';
import { KB_RESOURCES } from '../kb/kb-resources';

/** Every event type, in the order the docs list them. */
export const EVENT_TYPES: readonly string[] = [
  'signal.created',
  'buyer.created',
  'buyer.updated',
  'buyer.icp_matched',
  'buyer.persona_matched',
  ...KB_RESOURCES.flatMap((resource) => (['created', 'updated', 'deleted'] as const).map((action) => kbEventType(resource.path, action))),
];

/** Which event types a list of types and wildcards (`signal.created`, `buyer.*`, `kb.*`, `*`) names. */
export interface TypeSelection {
  types: string[];
}

/**
 * Reads a comma list of types and wildcards; a name or wildcard that matches no event type is an
 * error naming `param`, so a typo never silently selects nothing.
 */
export function selectTypes(value: string, param: string): TypeSelection {
  // Names as written: a space is part of the name it sits in, which then names no type.
  const names = value.split(',');
  const types = new Set<string>();
  for (const name of names) {
    const matched = EVENT_TYPES.filter((type) => subscribes([name], type));
    if (name === '' || matched.length === 0) {
      throw AppError.invalidParameter(
        param,
        `${param} must be event types or wildcards such as buyer.*; ${JSON.stringify(name.slice(0, 100))} names none.`,
      );
    }
    matched.forEach((type) => types.add(type));
  }
  return { types: EVENT_TYPES.filter((type) => types.has(type)) };
}

/** Whether types and wildcards (`signal.created`, `buyer.*`, `kb.*`, `*`) take an event of `type`. */
export function subscribes(patterns: readonly string[], type: string): boolean {
  return patterns.some(
    (pattern) => pattern === type || pattern === '*' || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))),
  );
}

/** The events list's `type` parameter: `selectTypes` as a query parser. */
export const eventTypesParser: QueryParser = selectTypes;
