import { Module } from '@nestjs/common';
import { CONSOLE_SESSION_AUTHENTICATOR } from '../../shared/interface/http/request-context';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { ConsoleApiKeysController } from './console-api-keys.controller';
import { ConsoleSessionController } from './console-session.controller';
import { ConsoleUsersService } from './console-users.service';

/** Console users and sessions without HTTP: what the CLI's `user` commands and the demo seed need. */
@Module({
  imports: [WorkspacesModule],
  providers: [ConsoleUsersService],
  exports: [ConsoleUsersService],
})
export class ConsoleUsersModule {}

/**
 * The console's own HTTP routes (session, API keys) and its session authenticator for the request
 * pipeline. The data routes are the other modules' controllers, which serve `/console/api/…`
 * beside their public paths (ADR 0058); an application serving the console imports those modules
 * too (AppModule).
 */
@Module({
  imports: [ConsoleUsersModule, WorkspacesModule],
  controllers: [ConsoleSessionController, ConsoleApiKeysController],
  providers: [{ provide: CONSOLE_SESSION_AUTHENTICATOR, useExisting: ConsoleUsersService }],
  exports: [CONSOLE_SESSION_AUTHENTICATOR],
})
export class ConsoleModule {}
