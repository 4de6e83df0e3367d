import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './config/config';
import { CoreModule } from './core.module';
import { SeedModule } from './modules/seed/seed.module';
import { WorkspacesModule } from './modules/workspaces/workspaces.module';

/** What the operations CLI needs: data access and the workspace service, no HTTP. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [CoreModule.forRoot(config), WorkspacesModule, SeedModule],
    };
  }
}
