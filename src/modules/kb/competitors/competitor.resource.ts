import { defineKbResource } from '../../../shared/application/kb-resource';
import { companyFields } from '../kb-shapes';
import { CompetitorEntity } from './competitor.entity';

export const competitorResource = defineKbResource({
  name: 'Competitor',
  path: 'competitors',
  idParam: 'id',
  idPrefix: 'cmp_',
  entity: CompetitorEntity,
  fields: companyFields('optional'),
});
