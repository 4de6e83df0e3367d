import { defineKbResource } from '../../../shared/application/kb-resource';
import { ID_PREFIXES } from '../../../shared/domain/ids';
import { companyFields } from '../kb-shapes';
import { CompetitorEntity } from './competitor.entity';

export const competitorResource = defineKbResource({
  name: 'Competitor',
  path: 'competitors',
  idParam: 'id',
  idPrefix: ID_PREFIXES.competitor,
  entity: CompetitorEntity,
  fields: companyFields('optional'),
});
