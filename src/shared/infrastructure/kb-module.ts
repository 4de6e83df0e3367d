import { Inject, Injectable, ModuleMetadata, Type } from '@nestjs/common';
import { getRepositoryToken, TypeOrmModule } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { KbService } from '../application/kb.service';
import { KbResource } from '../application/kb-resource';
import { Clock } from '../domain/clock';
import { IdGenerator } from '../domain/ids';
import { CLOCK, ID_GENERATOR } from '../shared.module';
import { CursorCodec } from './cursor-codec';
import { KbRecordEntity } from './kb-record.entity';

/**
 * The injectable service class of a resource (`class IcpsService extends KbServiceFor(icps) {}`),
 * so the console backend can inject each resource's service by its own class.
 */
export function KbServiceFor<E extends KbRecordEntity>(resource: KbResource<E>): Type<KbService<E>> {
  @Injectable()
  class GeneratedKbService extends KbService<E> {
    constructor(
      @Inject(getRepositoryToken(resource.entity)) repository: Repository<E>,
      @Inject(CursorCodec) cursors: CursorCodec,
      @Inject(CLOCK) clock: Clock,
      @Inject(ID_GENERATOR) ids: IdGenerator,
    ) {
      super(resource, repository, cursors, clock, ids);
    }
  }
  return GeneratedKbService;
}

/** Module metadata of a resource: its table, controller and service; the service is exported. */
export function kbModule<E extends KbRecordEntity>(
  resource: KbResource<E>,
  service: Type<KbService<E>>,
  controller: Type<unknown>,
): ModuleMetadata {
  return {
    imports: [TypeOrmModule.forFeature([resource.entity])],
    controllers: [controller],
    providers: [service],
    exports: [service],
  };
}
