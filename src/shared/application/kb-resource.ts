import type { Type } from '@nestjs/common';
import type { KbRecordEntity } from '../infrastructure/kb-record.entity';
import { defineKbDtos } from './kb-fields';
import type { KbServiceClass, KbServiceResource } from './kb.service';

/**
 * Everything that differs between the knowledge-base resources: what the generic service reads
 * (`KbServiceResource`), plus the entity and the service class the KB module builds it from. A
 * resource declares nothing else.
 */
export interface KbResource<E extends KbRecordEntity = KbRecordEntity> extends KbServiceResource {
  readonly entity: Type<E>;
  /**
   * The class its service is injected by (`class IcpsService extends KbService<IcpEntity> {}`),
   * so a console backend can ask for each resource's service by its own class.
   */
  readonly service: KbServiceClass<E>;
}

export interface KbResourceDeclaration<E extends KbRecordEntity> extends Omit<KbResource<E>, 'dtos' | 'computedFields'> {
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
