import { Module } from '@nestjs/common';
import { kbModule, KbServiceFor } from '../../../shared/infrastructure/kb-module';
import { KbController } from '../../../shared/interface/http/kb-controller.factory';
import { competitorResource } from './competitor.resource';

export class CompetitorsService extends KbServiceFor(competitorResource) {}

export class CompetitorsController extends KbController(competitorResource, CompetitorsService) {}

@Module(kbModule(competitorResource, CompetitorsService, CompetitorsController))
export class CompetitorsModule {}
