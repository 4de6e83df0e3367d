/**
 * Where an API error belongs in a form. A `400` names the offending input in `param` (`name`,
 * `criteria[0].value`, `enabled_events[2]`); its first segment picks the field, `aliases` maps a
 * segment to the field that produced it (an ICP's `criteria` come from its `description`). A `409`
 * conflict on a knowledge-base record is about its `short_name`. Anything else goes to the form top.
 */

export interface ErrorLike {
  status: number;
  code: string;
  message: string;
  param?: string;
}

export interface PlacedError {
  /** The field to show it at, or `null` for the form top. */
  field: string | null;
  message: string;
}

/** The field named by the first segment of a param path, or `null`. */
export function fieldForParam(
  param: string | undefined,
  fields: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): string | null {
  if (!param) return null;
  const head = /^(?:body\.)?([A-Za-z_][A-Za-z0-9_]*)/.exec(param.trim());
  if (!head) return null;
  const segment = head[1];
  const field = aliases[segment] ?? segment;
  return fields.includes(field) ? field : null;
}

/** Where to show an API error in a form with these fields. */
export function placeError(error: ErrorLike, fields: readonly string[], aliases: Readonly<Record<string, string>> = {}): PlacedError {
  if (error.status === 409 && fields.includes('short_name')) {
    return { field: error.param ? (fieldForParam(error.param, fields, aliases) ?? 'short_name') : 'short_name', message: error.message };
  }
  if (error.status === 400) return { field: fieldForParam(error.param, fields, aliases), message: error.message };
  return { field: null, message: error.message };
}
