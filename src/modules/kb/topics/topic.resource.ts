import { defineKbResource } from '../../../shared/application/kb-resource';
import { ID_PREFIXES } from '../../../shared/domain/ids';
import { profileFields } from '../kb-shapes';
import { TopicEntity } from './topic.entity';

export const topicResource = defineKbResource({
  name: 'Topic',
  path: 'topics',
  idParam: 'id',
  idPrefix: ID_PREFIXES.topic,
  entity: TopicEntity,
  fields: profileFields,
});
