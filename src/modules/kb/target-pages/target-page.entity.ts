import { Entity } from 'typeorm';
import { KbPageEntity } from '../../../shared/infrastructure/kb-record.entity';

@Entity('target_pages')
export class TargetPageEntity extends KbPageEntity {}
