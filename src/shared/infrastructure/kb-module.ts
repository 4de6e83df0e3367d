import { DynamicModule, FactoryProvider, Type } from '@nestjs/common';
import { getRepositoryToken, TypeOrmModule } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { KbService } from '../application/kb.service';
import { KbResource } from '../application/kb-resource';
import { Clock } from '../domain/clock';
import { IdGenerator } from '../domain/ids';
import { CLOCK, ID_GENERATOR } from '../shared.module';
import { CursorCodec } from './cursor-codec';
import { KbRecordEntity } from './kb-record.entity';

/**
 * A resource's service, provided under the class the resource declares (`IcpsService`), so the
 * console backend can inject each resource's service by its own class.
 */
export function kbServiceProvider<E extends KbRecordEntity>(resource: KbResource<E>): FactoryProvider<KbService<E>> {
  return {
    provide: resource.service,
    inject: [getRepositoryToken(resource.entity), CursorCodec, CLOCK, ID_GENERATOR, APP_CONFIG],
    useFactory: (repository: Repository<E>, cursors: CursorCodec, clock: Clock, ids: IdGenerator, config: AppConfig) =>
      new resource.service(resource, repository, cursors, clock, ids, { events: config.eventsEnabled }),
  };
}

/**
 * The Nest module of a resource (`TargetPagesModule`): its table, its controller and its service,
 * which it exports.
 */
export function kbModule<E extends KbRecordEntity>(resource: KbResource<E>, controller: Type<unknown>): DynamicModule {
  const name = `${resource.path.replace(/(^|-)([a-z])/g, (_, _dash, letter: string) => letter.toUpperCase())}Module`;
  return {
    module: { [name]: class {} }[name],
    imports: [TypeOrmModule.forFeature([resource.entity])],
    controllers: [controller],
    providers: [kbServiceProvider(resource)],
    exports: [resource.service],
  };
}
