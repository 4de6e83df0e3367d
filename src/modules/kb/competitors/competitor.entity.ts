import { Entity } from 'typeorm';
import { KbCompanyEntity } from '../../../shared/infrastructure/kb-record.entity';

@Entity('competitors')
export class CompetitorEntity extends KbCompanyEntity {}
