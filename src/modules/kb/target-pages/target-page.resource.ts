import { defineKbResource } from '../../../shared/application/kb-resource';
import { pageShape } from '../kb-shapes';
import { TargetPageEntity } from './target-page.entity';

export const targetPageResource = defineKbResource({
  name: 'Target Page',
  path: 'target-pages',
  idParam: 'id',
  idPrefix: 'tpg_',
  entity: TargetPageEntity,
  ...pageShape,
});
