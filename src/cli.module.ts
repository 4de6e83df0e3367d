import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { WorkspacesModule } from './modules/workspaces/workspaces.module';
import { SharedModule } from './shared/shared.module';

/** What the operations CLI needs: data access and the workspace service, no HTTP. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, SharedModule, WorkspacesModule],
    };
  }
}
