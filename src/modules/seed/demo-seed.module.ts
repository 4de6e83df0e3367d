import { Module } from '@nestjs/common';
import { ActivitiesModule } from '../activities/activities.module';
import { DirectoryModule } from '../directory/directory.module';
import { KbModule } from '../kb/kb.module';
import { PipelineModule } from '../pipeline/pipeline.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { ConsoleUsersModule } from '../console/console.module';
import { DemoSeedService } from './demo-seed.service';

/** The demo seed, with the pipeline workers in the same process so it can wait for them. */
@Module({
  imports: [WorkspacesModule, DirectoryModule, KbModule, ActivitiesModule, PipelineModule, ConsoleUsersModule],
  providers: [DemoSeedService],
  exports: [DemoSeedService],
})
export class DemoSeedModule {}
