import { defineKbResource } from '../../../shared/application/kb-resource';
import { companyFields } from '../kb-shapes';
import { ExclusionEntity } from './exclusion.entity';

export const exclusionResource = defineKbResource({
  name: 'Exclusion',
  path: 'exclusions',
  idParam: 'id',
  idPrefix: 'exc_',
  entity: ExclusionEntity,
  fields: companyFields('required'),
});
