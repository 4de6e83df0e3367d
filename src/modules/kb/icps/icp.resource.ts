import { defineKbResource } from '../../../shared/application/kb-resource';
import { profileFields } from '../kb-shapes';
import { IcpEntity } from './icp.entity';

export const icpResource = defineKbResource({
  name: 'ICP',
  path: 'icps',
  idParam: 'icp_id',
  idPrefix: 'icp_',
  entity: IcpEntity,
  fields: profileFields,
});
