import { Entity } from 'typeorm';
import { KbRecordEntity } from '../../../shared/infrastructure/kb-record.entity';

@Entity('personas')
export class PersonaEntity extends KbRecordEntity {}
