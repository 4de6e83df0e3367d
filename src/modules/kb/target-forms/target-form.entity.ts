import { Entity } from 'typeorm';
import { KbPageEntity } from '../../../shared/infrastructure/kb-record.entity';

@Entity('target_forms')
export class TargetFormEntity extends KbPageEntity {}
