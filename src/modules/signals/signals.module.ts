import { Module } from '@nestjs/common';
import { SignalsController } from './signals.controller';
import { SignalsRepository } from './signals.repository';
import { SignalsService } from './signals.service';

@Module({
  controllers: [SignalsController],
  providers: [SignalsRepository, SignalsService],
  exports: [SignalsService],
})
export class SignalsModule {}
