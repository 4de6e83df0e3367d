import { defineKbResource } from '../../../shared/application/kb-resource';
import { ID_PREFIXES } from '../../../shared/domain/ids';
import { profileFields } from '../kb-shapes';
import { IcpEntity } from './icp.entity';

export const icpResource = defineKbResource({
  name: 'ICP',
  path: 'icps',
  idParam: 'icp_id',
  idPrefix: ID_PREFIXES.icp,
  entity: IcpEntity,
  fields: profileFields,
});
