import { Module } from '@nestjs/common';
import { API_KEY_AUTHENTICATOR } from '../../shared/interface/http/request-context';
import { CachingApiKeyAuthenticator } from './api-key-cache';
import { WorkspacesService } from './workspaces.service';

@Module({
  providers: [WorkspacesService, CachingApiKeyAuthenticator, { provide: API_KEY_AUTHENTICATOR, useExisting: CachingApiKeyAuthenticator }],
  exports: [WorkspacesService, API_KEY_AUTHENTICATOR],
})
export class WorkspacesModule {}
