import { defineKbResource } from '../../../shared/application/kb-resource';
import { ID_PREFIXES } from '../../../shared/domain/ids';
import { pageShape } from '../kb-shapes';
import { TargetPageEntity } from './target-page.entity';

export const targetPageResource = defineKbResource({
  name: 'Target Page',
  path: 'target-pages',
  idParam: 'id',
  idPrefix: ID_PREFIXES.targetPage,
  entity: TargetPageEntity,
  ...pageShape,
});
