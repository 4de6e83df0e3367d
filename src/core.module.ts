import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseWorkload } from './database/timeouts';
import { DatabaseModule } from './database/database.module';
import { SharedModule } from './shared/shared.module';

/**
 * Configuration, database connection and shared kernel. Every entry point starts from it, and so
 * can another Nest application (the console backend): `imports: [CoreModule.forRoot(loadConfig()),
 * KbModule]` gives it the same services, on the same data, as the HTTP API.
 */
@Module({})
export class CoreModule {
  /** `workload`: what the process runs on its database pool, which bounds its statements (ADR 0046). */
  static forRoot(config: AppConfig, workload: DatabaseWorkload = 'api'): DynamicModule {
    return {
      module: CoreModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(workload), SharedModule],
    };
  }
}
