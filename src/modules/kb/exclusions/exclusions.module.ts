import { Module } from '@nestjs/common';
import { kbModule, KbServiceFor } from '../../../shared/infrastructure/kb-module';
import { KbController } from '../../../shared/interface/http/kb-controller.factory';
import { exclusionResource } from './exclusion.resource';

export class ExclusionsService extends KbServiceFor(exclusionResource) {}

export class ExclusionsController extends KbController(exclusionResource, ExclusionsService) {}

@Module(kbModule(exclusionResource, ExclusionsService, ExclusionsController))
export class ExclusionsModule {}
