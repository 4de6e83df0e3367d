import { defineKbResource } from '../../../shared/application/kb-resource';
import { profileFields } from '../kb-shapes';
import { TopicEntity } from './topic.entity';

export const topicResource = defineKbResource({
  name: 'Topic',
  path: 'topics',
  idParam: 'id',
  idPrefix: 'top_',
  entity: TopicEntity,
  fields: profileFields,
});
