import { Entity } from 'typeorm';
import { KbCompanyEntity } from '../../../shared/infrastructure/kb-record.entity';

@Entity('exclusions')
export class ExclusionEntity extends KbCompanyEntity {}
