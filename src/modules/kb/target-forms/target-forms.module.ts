import { Module } from '@nestjs/common';
import { kbModule, KbServiceFor } from '../../../shared/infrastructure/kb-module';
import { KbController } from '../../../shared/interface/http/kb-controller.factory';
import { targetFormResource } from './target-form.resource';

export class TargetFormsService extends KbServiceFor(targetFormResource) {}

export class TargetFormsController extends KbController(targetFormResource, TargetFormsService) {}

@Module(kbModule(targetFormResource, TargetFormsService, TargetFormsController))
export class TargetFormsModule {}
