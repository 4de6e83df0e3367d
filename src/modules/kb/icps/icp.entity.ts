import { Entity } from 'typeorm';
import { KbRecordEntity } from '../../../shared/infrastructure/kb-record.entity';

@Entity('icps')
export class IcpEntity extends KbRecordEntity {}
