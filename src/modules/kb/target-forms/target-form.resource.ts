import { defineKbResource } from '../../../shared/application/kb-resource';
import { ID_PREFIXES } from '../../../shared/domain/ids';
import { pageShape } from '../kb-shapes';
import { TargetFormEntity } from './target-form.entity';

export const targetFormResource = defineKbResource({
  name: 'Target Form',
  path: 'target-forms',
  idParam: 'id',
  idPrefix: ID_PREFIXES.targetForm,
  entity: TargetFormEntity,
  ...pageShape,
});
