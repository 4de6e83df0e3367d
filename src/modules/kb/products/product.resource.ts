import { defineKbResource } from '../../../shared/application/kb-resource';
import { profileFields } from '../kb-shapes';
import { ProductEntity } from './product.entity';

export const productResource = defineKbResource({
  name: 'Product',
  path: 'products',
  idParam: 'id',
  idPrefix: 'prd_',
  entity: ProductEntity,
  fields: profileFields,
});
