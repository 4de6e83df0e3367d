import { defineKbResource } from '../../../shared/application/kb-resource';
import { KbService } from '../../../shared/application/kb.service';
import { pageShape } from '../kb-shapes';
import { TargetFormEntity } from './target-form.entity';

/** The Target Forms' service; a console backend injects it by this class. */
export class TargetFormsService extends KbService<TargetFormEntity> {}

export const targetFormResource = defineKbResource({
  name: 'Target Form',
  path: 'target-forms',
  idParam: 'id',
  idPrefix: 'tfm_',
  entity: TargetFormEntity,
  service: TargetFormsService,
  ...pageShape,
});
