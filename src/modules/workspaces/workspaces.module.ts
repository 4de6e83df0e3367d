import { Module } from '@nestjs/common';
import { API_KEY_AUTHENTICATOR } from '../../shared/interface/http/request-context';
import { WorkspacesService } from './workspaces.service';

@Module({
  providers: [WorkspacesService, { provide: API_KEY_AUTHENTICATOR, useExisting: WorkspacesService }],
  exports: [WorkspacesService, API_KEY_AUTHENTICATOR],
})
export class WorkspacesModule {}
