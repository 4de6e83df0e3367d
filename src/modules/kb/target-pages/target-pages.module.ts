import { Module } from '@nestjs/common';
import { kbModule, KbServiceFor } from '../../../shared/infrastructure/kb-module';
import { KbController } from '../../../shared/interface/http/kb-controller.factory';
import { targetPageResource } from './target-page.resource';

export class TargetPagesService extends KbServiceFor(targetPageResource) {}

export class TargetPagesController extends KbController(targetPageResource, TargetPagesService) {}

@Module(kbModule(targetPageResource, TargetPagesService, TargetPagesController))
export class TargetPagesModule {}
