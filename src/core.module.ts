import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { SharedModule } from './shared/shared.module';

/**
 * Configuration, database connection and shared kernel. Every entry point starts from it, and so
 * can another Nest application (the console backend): `imports: [CoreModule.forRoot(loadConfig()),
 * KbModule]` gives it the same services, on the same data, as the HTTP API.
 */
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, SharedModule],
    };
  }
}
