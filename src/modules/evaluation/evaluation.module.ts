import { Module } from '@nestjs/common';
import { BuyersModule } from '../buyers/buyers.module';
import { KbModule } from '../kb/kb.module';
import { CriteriaController } from './criteria.controller';
import { CriteriaService } from './criteria.service';
import { SimulationController } from './simulation.controller';
import { SimulationService } from './simulation.service';

/** How ICP and Persona descriptions are read and what they would match: criteria shown back, simulation of drafts. */
@Module({
  imports: [KbModule, BuyersModule],
  controllers: [SimulationController, CriteriaController],
  providers: [SimulationService, CriteriaService],
  exports: [SimulationService, CriteriaService],
})
export class EvaluationModule {}
