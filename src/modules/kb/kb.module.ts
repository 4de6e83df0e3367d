import { Module } from '@nestjs/common';
import { CompetitorsModule } from './competitors/competitors.module';
import { ExclusionsModule } from './exclusions/exclusions.module';
import { IcpsModule } from './icps/icps.module';
import { PersonasModule } from './personas/personas.module';
import { ProductsModule } from './products/products.module';
import { TargetFormsModule } from './target-forms/target-forms.module';
import { TargetPagesModule } from './target-pages/target-pages.module';
import { TopicsModule } from './topics/topics.module';

const resourceModules = [
  IcpsModule,
  PersonasModule,
  CompetitorsModule,
  ProductsModule,
  TopicsModule,
  TargetPagesModule,
  TargetFormsModule,
  ExclusionsModule,
];

/** The eight knowledge-base resources; importing it exports all their services. */
@Module({ imports: resourceModules, exports: resourceModules })
export class KbModule {}
