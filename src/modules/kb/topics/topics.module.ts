import { Module } from '@nestjs/common';
import { kbModule, KbServiceFor } from '../../../shared/infrastructure/kb-module';
import { KbController } from '../../../shared/interface/http/kb-controller.factory';
import { topicResource } from './topic.resource';

export class TopicsService extends KbServiceFor(topicResource) {}

export class TopicsController extends KbController(topicResource, TopicsService) {}

@Module(kbModule(topicResource, TopicsService, TopicsController))
export class TopicsModule {}
