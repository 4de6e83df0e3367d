import { Module } from '@nestjs/common';
import { kbModule } from '../../shared/infrastructure/kb-module';
import { KbController } from '../../shared/interface/http/kb-controller.factory';
import { KB_RESOURCES } from './kb-resources';

const resourceModules = KB_RESOURCES.map((resource) => kbModule(resource, KbController(resource, resource.service)));

/** The knowledge-base resources, a module each, built from their declarations; importing it exports all their services. */
@Module({ imports: resourceModules, exports: resourceModules })
export class KbModule {}
