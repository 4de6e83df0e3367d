import { defineKbResource } from '../../../shared/application/kb-resource';
import { ID_PREFIXES } from '../../../shared/domain/ids';
import { companyFields } from '../kb-shapes';
import { ExclusionEntity } from './exclusion.entity';

export const exclusionResource = defineKbResource({
  name: 'Exclusion',
  path: 'exclusions',
  idParam: 'id',
  idPrefix: ID_PREFIXES.exclusion,
  entity: ExclusionEntity,
  fields: companyFields('required'),
});
