import { Module } from '@nestjs/common';
import { kbModule, KbServiceFor } from '../../../shared/infrastructure/kb-module';
import { KbController } from '../../../shared/interface/http/kb-controller.factory';
import { icpResource } from './icp.resource';

export class IcpsService extends KbServiceFor(icpResource) {}

export class IcpsController extends KbController(icpResource, IcpsService) {}

@Module(kbModule(icpResource, IcpsService, IcpsController))
export class IcpsModule {}
