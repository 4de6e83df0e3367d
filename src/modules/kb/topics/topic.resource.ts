import { defineKbResource } from '../../../shared/application/kb-resource';
import { KbService } from '../../../shared/application/kb.service';
import { profileFields } from '../kb-shapes';
import { TopicEntity } from './topic.entity';

/** The Topics' service; a console backend injects it by this class. */
export class TopicsService extends KbService<TopicEntity> {}

export const topicResource = defineKbResource({
  name: 'Topic',
  path: 'topics',
  idParam: 'id',
  idPrefix: 'top_',
  entity: TopicEntity,
  service: TopicsService,
  fields: profileFields,
});
