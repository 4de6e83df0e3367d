import { defineKbResource } from '../../../shared/application/kb-resource';
import { KbService } from '../../../shared/application/kb.service';
import { companyFields } from '../kb-shapes';
import { ExclusionEntity } from './exclusion.entity';

/** The Exclusions' service; a console backend injects it by this class. */
export class ExclusionsService extends KbService<ExclusionEntity> {}

export const exclusionResource = defineKbResource({
  name: 'Exclusion',
  path: 'exclusions',
  idParam: 'id',
  idPrefix: 'exc_',
  entity: ExclusionEntity,
  service: ExclusionsService,
  fields: companyFields('required'),
});
