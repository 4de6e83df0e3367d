import { DynamicModule, Module, Type } from '@nestjs/common';
import { AppConfig } from './config/config';
import { CoreModule } from './core.module';
import { WorkspacesModule } from './modules/workspaces/workspaces.module';

/** What the operations CLI needs: data access, the workspace service and per command more; no HTTP. */
@Module({})
export class CliModule {
  /** `modules`: what the command needs beyond workspaces (so `key create` never connects to Redis). */
  static forRoot(config: AppConfig, modules: Array<Type<unknown>> = []): DynamicModule {
    return {
      module: CliModule,
      imports: [CoreModule.forRoot(config, 'cli'), WorkspacesModule, ...modules],
    };
  }
}
