import { Entity } from 'typeorm';
import { KbRecordEntity } from '../../../shared/infrastructure/kb-record.entity';

@Entity('topics')
export class TopicEntity extends KbRecordEntity {}
