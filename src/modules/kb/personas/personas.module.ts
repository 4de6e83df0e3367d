import { Module } from '@nestjs/common';
import { kbModule, KbServiceFor } from '../../../shared/infrastructure/kb-module';
import { KbController } from '../../../shared/interface/http/kb-controller.factory';
import { personaResource } from './persona.resource';

export class PersonasService extends KbServiceFor(personaResource) {}

export class PersonasController extends KbController(personaResource, PersonasService) {}

@Module(kbModule(personaResource, PersonasService, PersonasController))
export class PersonasModule {}
