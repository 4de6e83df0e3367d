import { defineKbResource } from '../../../shared/application/kb-resource';
import { KbService } from '../../../shared/application/kb.service';
import { companyFields } from '../kb-shapes';
import { CompetitorEntity } from './competitor.entity';

/** The Competitors' service; a console backend injects it by this class. */
export class CompetitorsService extends KbService<CompetitorEntity> {}

export const competitorResource = defineKbResource({
  name: 'Competitor',
  path: 'competitors',
  idParam: 'id',
  idPrefix: 'cmp_',
  entity: CompetitorEntity,
  service: CompetitorsService,
  fields: companyFields('optional'),
});
