import { Module } from '@nestjs/common';
import { KB_ID_PARAMS, kbIdParams } from '../../shared/application/kb-resource';
import { kbModule } from '../../shared/infrastructure/kb-module';
import { KbController } from '../../shared/interface/http/kb-controller.factory';
import { KB_RESOURCES } from './kb-resources';

const resourceModules = KB_RESOURCES.map((resource) => kbModule(resource, KbController(resource, resource.service)));

/**
 * The knowledge-base resources, a module each, built from their declarations; importing it
 * exports all their services, and the path parameter names their ids go by (KB_ID_PARAMS).
 */
@Module({
  imports: resourceModules,
  providers: [{ provide: KB_ID_PARAMS, useValue: kbIdParams(KB_RESOURCES) }],
  exports: [...resourceModules, KB_ID_PARAMS],
})
export class KbModule {}
