import { Entity } from 'typeorm';
import { KbRecordEntity } from '../../../shared/infrastructure/kb-record.entity';

@Entity('products')
export class ProductEntity extends KbRecordEntity {}
