import { defineKbResource } from '../../../shared/application/kb-resource';
import { KbService } from '../../../shared/application/kb.service';
import { profileFields } from '../kb-shapes';
import { ProductEntity } from './product.entity';

/** The Products' service; a console backend injects it by this class. */
export class ProductsService extends KbService<ProductEntity> {}

export const productResource = defineKbResource({
  name: 'Product',
  path: 'products',
  idParam: 'id',
  idPrefix: 'prd_',
  entity: ProductEntity,
  service: ProductsService,
  fields: profileFields,
});
