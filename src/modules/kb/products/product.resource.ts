import { defineKbResource } from '../../../shared/application/kb-resource';
import { ID_PREFIXES } from '../../../shared/domain/ids';
import { profileFields } from '../kb-shapes';
import { ProductEntity } from './product.entity';

export const productResource = defineKbResource({
  name: 'Product',
  path: 'products',
  idParam: 'id',
  idPrefix: ID_PREFIXES.product,
  entity: ProductEntity,
  fields: profileFields,
});
