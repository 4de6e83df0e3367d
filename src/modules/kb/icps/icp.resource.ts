import { defineKbResource } from '../../../shared/application/kb-resource';
import { KbService } from '../../../shared/application/kb.service';
import { profileFields } from '../kb-shapes';
import { IcpEntity } from './icp.entity';

/** The ICPs' service; a console backend injects it by this class. */
export class IcpsService extends KbService<IcpEntity> {}

export const icpResource = defineKbResource({
  name: 'ICP',
  path: 'icps',
  idParam: 'icp_id',
  idPrefix: 'icp_',
  entity: IcpEntity,
  service: IcpsService,
  fields: profileFields,
});
