import { defineKbResource } from '../../../shared/application/kb-resource';
import { KbService } from '../../../shared/application/kb.service';
import { pageShape } from '../kb-shapes';
import { TargetPageEntity } from './target-page.entity';

/** The Target Pages' service; a console backend injects it by this class. */
export class TargetPagesService extends KbService<TargetPageEntity> {}

export const targetPageResource = defineKbResource({
  name: 'Target Page',
  path: 'target-pages',
  idParam: 'id',
  idPrefix: 'tpg_',
  entity: TargetPageEntity,
  service: TargetPagesService,
  ...pageShape,
});
