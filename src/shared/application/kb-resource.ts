import type { Type } from '@nestjs/common';
import type { KbRecordEntity } from '../infrastructure/kb-record.entity';
import { defineKbDtos, KbDtoClass, KbFields } from './kb-fields';
import type { KbServiceClass } from './kb.service';

/**
 * Everything that differs between the knowledge-base resources. The generic service, repository,
 * controller factory and the KB module read it; a resource declares nothing else.
 */
export interface KbResource<E extends KbRecordEntity = KbRecordEntity> {
  /** Singular name, for messages and generated class names (`Target Page`). */
  readonly name: string;
  /** Path segment under `/v1/kb/`. */
  readonly path: string;
  /** Name of the path parameter that carries the id (`icp_id`, `persona_id`, `id`). */
  readonly idParam: string;
  /** Prefix of its public ids (`icp_`); declared here only. */
  readonly idPrefix: string;
  readonly entity: Type<E>;
  /**
   * The class its service is injected by (`class IcpsService extends KbService<IcpEntity> {}`),
   * so a console backend can ask for each resource's service by its own class.
   */
  readonly service: KbServiceClass<E>;
  /** Editable fields in response order, with their validation rules. */
  readonly fields: KbFields;
  readonly dtos: { readonly create: KbDtoClass; readonly update: KbDtoClass };
  /** Read-only fields computed from editable ones; shown after the editable fields. */
  readonly computedFields: readonly string[];
  /** Computes `computedFields` from the editable values being written (hook). */
  readonly derive?: (values: Readonly<Record<string, string>>) => Record<string, string>;
}

export interface KbResourceDeclaration<E extends KbRecordEntity>
  extends Omit<KbResource<E>, 'dtos' | 'computedFields'> {
  readonly computedFields?: readonly string[];
}

export function defineKbResource<E extends KbRecordEntity>(declaration: KbResourceDeclaration<E>): KbResource<E> {
  return {
    ...declaration,
    computedFields: declaration.computedFields ?? [],
    dtos: defineKbDtos(declaration.name.replace(/\s+/g, ''), declaration.fields),
  };
}

/**
 * Provider token: per KB path, the name of the path parameter that carries its ids (`icps` →
 * `icp_id`). The KB module provides it from its resources; the exception filter reads it.
 */
export const KB_ID_PARAMS = Symbol('KB_ID_PARAMS');

export type KbIdParams = Readonly<Record<string, string>>;

export function kbIdParams(resources: readonly KbResource[]): KbIdParams {
  return Object.fromEntries(resources.map((resource) => [resource.path, resource.idParam]));
}
