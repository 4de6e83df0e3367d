import { plainToInstance, Transform } from 'class-transformer';
import { registerDecorator, validateSync, ValidationArguments } from 'class-validator';
import { canonicalizeUrl, MAX_URL_LENGTH } from '../domain/canonical-url';
import { isHttpUrl, isLinkedinCompanyUrl, MAX_DOMAIN_LENGTH, normalizeDomain } from '../domain/company-fields';
import { isPlainObject } from '../domain/plain-object';
import { AppError } from './app-error';

/**
 * Declarative field rules for knowledge-base records. A resource lists its editable fields once;
 * `defineKbDtos` turns the list into class-validator DTO classes (create and update) and
 * `validateKbInput` applies them with the public error contract (first offending field as `param`).
 */

export type FieldRule = 'text' | 'domain' | 'linkedin' | 'image_url' | 'page_url';

/**
 * `required`: must be present and non-empty on create. `optional`: may be omitted, must not be empty
 * when given. `clearable`: may be omitted, `null` or `""` clear it to `""`.
 */
export type Presence = 'required' | 'optional' | 'clearable';

export interface KbFieldSpec {
  rule: FieldRule;
  presence: Presence;
  maxLength: number;
}

export type KbFields = Readonly<Record<string, KbFieldSpec>>;

const field =
  (rule: FieldRule, maxLength: number) =>
  (presence: Presence = 'required'): KbFieldSpec => ({
    rule,
    presence,
    maxLength,
  });

/** The field kinds of the knowledge base with DESIGN §1 length limits. */
export const kbField = {
  name: field('text', 200),
  shortName: field('text', 64),
  description: field('text', 10_000),
  domain: field('domain', MAX_DOMAIN_LENGTH),
  linkedin: field('linkedin', MAX_URL_LENGTH),
  logo: field('image_url', MAX_URL_LENGTH),
  pageUrl: field('page_url', MAX_URL_LENGTH),
};

/** System-managed fields of every record: supplying one is a validation error, not a silent drop. */
export const SYSTEM_FIELDS = new Set(['id', 'client_id', 'created_by', 'created_at', 'updated_at', 'deleted_at']);

const RULE_CHECKS: Record<FieldRule, { test: (value: string) => boolean; explain: string }> = {
  text: { test: () => true, explain: '' },
  domain: {
    test: (value) => normalizeDomain(value) !== null,
    explain: 'must be a bare domain name such as example.com (no scheme, path or port)',
  },
  linkedin: {
    test: isLinkedinCompanyUrl,
    explain: 'must be a LinkedIn company page URL such as https://www.linkedin.com/company/acme',
  },
  image_url: { test: isHttpUrl, explain: 'must be an absolute http or https URL' },
  page_url: {
    test: (value) => canonicalizeUrl(value) !== null,
    explain: 'must be a website address: an http or https URL, or host and path such as example.com/pricing',
  },
};

function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** The message for a bad value, or null when the value is acceptable. */
export function checkFieldValue(name: string, spec: KbFieldSpec, value: unknown): string | null {
  if (value === null || value === undefined) {
    return spec.presence === 'clearable' ? null : `${name} must be a non-empty string`;
  }
  if (typeof value !== 'string') return `${name} must be a string`;
  if (!value.isWellFormed() || value.includes('\u0000')) return `${name} must be valid text (no NUL characters or unpaired surrogates)`;
  if (value === '') return spec.presence === 'clearable' ? null : `${name} must not be empty`;
  if (codePoints(value) > spec.maxLength) return `${name} must be at most ${spec.maxLength} characters`;
  const rule = RULE_CHECKS[spec.rule];
  return rule.test(value) ? null : `${name} ${rule.explain}`;
}

function KbFieldConstraint(name: string, spec: KbFieldSpec): PropertyDecorator {
  return (target, propertyKey) =>
    registerDecorator({
      name: `kb_${spec.rule}`,
      target: target.constructor,
      propertyName: propertyKey as string,
      validator: {
        validate: (value: unknown) => checkFieldValue(name, spec, value) === null,
        defaultMessage: (args?: ValidationArguments) => checkFieldValue(name, spec, args?.value) ?? `${name} is invalid`,
      },
    });
}

const trim = Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

export type KbDtoMode = 'create' | 'update';

/** A DTO class generated from a field list; `fields`/`mode` travel with it for `validateKbInput`. */
export interface KbDtoClass<T = Record<string, string>> {
  new (): T;
  readonly kbFields: KbFields;
  readonly kbMode: KbDtoMode;
}

/** Builds the create and update DTO classes of a resource from its field list. */
export function defineKbDtos<T extends Record<string, string>>(resource: string, fields: KbFields) {
  const build = (mode: KbDtoMode): KbDtoClass<T> => {
    const className = `${mode === 'create' ? 'Create' : 'Update'}${resource}Request`;
    const dto = { [className]: class {} }[className] as unknown as KbDtoClass<T>;
    Object.defineProperty(dto, 'kbFields', { value: fields });
    Object.defineProperty(dto, 'kbMode', { value: mode });
    for (const [name, spec] of Object.entries(fields)) {
      trim(dto.prototype as object, name);
      // Absent fields are checked by presence rules in validateKbInput, so the constraint only
      // sees values that were sent.
      KbFieldConstraint(name, spec)(dto.prototype as object, name);
    }
    return dto;
  };
  return { create: build('create'), update: build('update') };
}

/**
 * Validates a request body against a generated DTO class and returns the values to store:
 * only the fields supplied, trimmed, with cleared optional fields as `""` and domains lowercased.
 * Throws `validation_error` naming the first offending field.
 */
export function validateKbInput(dto: KbDtoClass, body: unknown, readOnly: readonly string[] = []): Record<string, string> {
  if (!isPlainObject(body)) throw AppError.validation('body', 'The request body must be a JSON object.');
  const fields = dto.kbFields;
  const keys = Object.keys(body);
  for (const key of keys) {
    if (SYSTEM_FIELDS.has(key) || readOnly.includes(key)) {
      throw AppError.validation(key, `${key} is managed by the service and cannot be set.`);
    }
    if (!Object.prototype.hasOwnProperty.call(fields, key)) {
      throw AppError.validation(key, `Unknown field ${JSON.stringify(key.slice(0, 100))}.`);
    }
  }
  if (dto.kbMode === 'update' && keys.length === 0) {
    throw AppError.validation('body', 'Supply at least one field to update.');
  }
  // Every field is text: anything else is refused before an object is built from the body, so
  // no nested value (however deep, whatever its keys) is ever walked.
  for (const [name, spec] of Object.entries(fields)) {
    const value = body[name];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      throw AppError.validation(name, `${checkFieldValue(name, spec, value) ?? `${name} must be a string`}.`);
    }
  }

  const instance = plainToInstance(dto, body) as unknown as Record<string, unknown>;
  const errors = validateSync(instance, { skipUndefinedProperties: true, forbidUnknownValues: false });
  const failed = new Map(errors.map((e) => [e.property, Object.values(e.constraints ?? {})[0]]));

  const values: Record<string, string> = {};
  for (const [name, spec] of Object.entries(fields)) {
    const value = instance[name];
    if (value === undefined) {
      if (dto.kbMode === 'create' && spec.presence === 'required') {
        throw AppError.validation(name, `${name} is required.`);
      }
      continue;
    }
    const message = failed.get(name);
    if (message) throw AppError.validation(name, message.endsWith('.') ? message : `${message}.`);
    const text = value === null ? '' : (value as string);
    values[name] = spec.rule === 'domain' ? (normalizeDomain(text) ?? text) : text;
  }
  return values;
}
