import { AppError } from '../../shared/application/app-error';
import { checkFieldValue, kbField } from '../../shared/application/kb-fields';
import { isPlainObject } from '../../shared/domain/plain-object';

const DESCRIPTION = kbField.description();

/**
 * Reads a request about a draft description: a JSON object with `description`, which follows the
 * KB's description rule and is trimmed as the KB trims it, and no field beyond `description` and
 * `others`. Anything else is a 400 naming the field. The other fields are returned unchecked.
 */
export function draftBody(body: unknown, others: readonly string[] = []): { description: string } & Record<string, unknown> {
  if (!isPlainObject(body)) throw AppError.validation('body', 'The request body must be a JSON object.');
  for (const name of Object.keys(body)) {
    if (name !== 'description' && !others.includes(name)) throw AppError.validation(name, `${name} is not a known field.`);
  }
  const description = typeof body.description === 'string' ? body.description.trim() : body.description;
  const problem = checkFieldValue('description', DESCRIPTION, description);
  if (problem) throw AppError.validation('description', `${problem}.`);
  return { ...body, description: description as string };
}
