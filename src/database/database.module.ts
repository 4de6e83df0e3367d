import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { DATABASE_WORKLOAD, ReplicaReads } from './replica-reads';
import { DatabaseWorkload } from './timeouts';

/**
 * The TypeORM connection, and where the read routes' statements go (`ReplicaReads`, available
 * everywhere). The schema is prepared before start-up (see bootstrap.ts), never synchronised.
 */
@Module({})
export class DatabaseModule {
  /** `workload` sets how long a statement may take (ADR 0046); only the API's reads use replicas (ADR 0050). */
  static forRoot(workload: DatabaseWorkload): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => dataSourceOptions(config.databaseUrl, config.database, workload, config),
        }),
      ],
      providers: [{ provide: DATABASE_WORKLOAD, useValue: workload }, ReplicaReads],
      exports: [ReplicaReads],
    };
  }
}
