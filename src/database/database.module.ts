import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { DatabaseWorkload } from './timeouts';

/** The TypeORM connection. The schema is prepared before start-up (see bootstrap.ts), never synchronised. */
@Module({})
export class DatabaseModule {
  /** `workload` sets how long a statement may take (ADR 0046). */
  static forRoot(workload: DatabaseWorkload): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => dataSourceOptions(config.databaseUrl, config.database, workload, config),
        }),
      ],
    };
  }
}
