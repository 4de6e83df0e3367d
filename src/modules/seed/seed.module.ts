import { Module } from '@nestjs/common';
import { BulkSeedService } from './bulk-seed.service';

@Module({ providers: [BulkSeedService], exports: [BulkSeedService] })
export class SeedModule {}
