import { defineKbResource } from '../../../shared/application/kb-resource';
import { pageShape } from '../kb-shapes';
import { TargetFormEntity } from './target-form.entity';

export const targetFormResource = defineKbResource({
  name: 'Target Form',
  path: 'target-forms',
  idParam: 'id',
  idPrefix: 'tfm_',
  entity: TargetFormEntity,
  ...pageShape,
});
