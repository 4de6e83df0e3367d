import { Module } from '@nestjs/common';
import { BuyersModule } from '../buyers/buyers.module';
import { KbModule } from '../kb/kb.module';
import { SimulationController } from './simulation.controller';
import { SimulationService } from './simulation.service';

/** How ICP and Persona descriptions are read and what they would match: simulation of drafts. */
@Module({
  imports: [KbModule, BuyersModule],
  controllers: [SimulationController],
  providers: [SimulationService],
  exports: [SimulationService],
})
export class EvaluationModule {}
