import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { ActivitiesRepository } from '../activities/activities.repository';
import { ActivitiesService } from '../activities/activities.service';
import { DirectoryRepository } from '../directory/directory.repository';
import { kbResourceAt } from '../kb/kb-resources';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { ConsoleUsersService } from '../console/console-users.service';
import { normalizeLinkedinProfile } from '../../shared/domain/identity';
import { demoActivity, demoDirectory, demoKnowledgeBase } from './demo-data';

export interface DemoResult {
  workspace_id: string;
  api_key: string;
  key_id: string;
  knowledge_base: number;
  directory: { companies: number; people: number };
  activities: number;
  processed: number;
  discarded: number;
  /** A console user of the demo workspace: sign in with these (the password is shown this once). */
  console: { user_id: string; email: string; password: string };
}

/**
 * A demo workspace: the demo directory loaded for enrichment, a realistic knowledge base, then a few thousand activities through the real
 * pipeline (the calling process must run the workers), waiting until every one has finished.
 */
@Injectable()
export class DemoSeedService {
  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly workspaces: WorkspacesService,
    private readonly intake: ActivitiesService,
    private readonly activities: ActivitiesRepository,
    private readonly directory: DirectoryRepository,
    private readonly consoleUsers: ConsoleUsersService,
  ) {}

  async seed(count: number, onProgress: (phase: string, done: number, total: number) => void = () => undefined): Promise<DemoResult> {
    const directory = await loadDemoDirectory(this.directory);
    onProgress('directory', 1, 1);
    const created = await this.workspaces.createWorkspace('Demo');
    const ctx = WorkspaceContext.forConsole(created.workspace_id, 'demo-seed');
    // One email per demo workspace (emails are unique across workspaces).
    const user = await this.consoleUsers.createUser(created.workspace_id, `demo-${BigInt(ctx.workspaceId)}@example.com`);
    const kb = demoKnowledgeBase();
    for (const [index, record] of kb.entries()) {
      await this.moduleRef.get(kbResourceAt(record.resource).service, { strict: false }).create(ctx, record.body);
      onProgress('knowledge base', index + 1, kb.length);
    }
    const run = randomBytes(3).toString('hex');
    let first = '';
    let last = '';
    for (let offset = 0; offset < count; offset += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - offset) }, (_, k) => demoActivity(offset + k, count, run));
      const answer = await this.intake.intake(ctx, { activities: batch });
      first ||= String(BigInt(answer.data[0].id.slice(4)));
      last = String(BigInt(answer.data[answer.data.length - 1].id.slice(4)));
      onProgress('ingest', Math.min(offset + 1000, count), count);
    }
    for (;;) {
      const progress = count > 0 ? await this.activities.progress(ctx, first, last) : { pending: 0, processed: 0, discarded: 0 };
      onProgress('pipeline', progress.processed + progress.discarded, count);
      if (progress.pending === 0) {
        return {
          ...created,
          knowledge_base: kb.length,
          directory,
          activities: count,
          processed: progress.processed,
          discarded: progress.discarded,
          console: { user_id: user.user_id, email: user.email, password: user.password },
        };
      }
      await sleep(250);
    }
  }
}

/**
 * Upserts the demo directory's companies and people into the (shared) enrichment directory; the
 * same rows on every run, so loading it again changes nothing.
 */
export async function loadDemoDirectory(directory: DirectoryRepository): Promise<{ companies: number; people: number }> {
  const { companies, people } = demoDirectory();
  await directory.upsertCompanies(companies.map(({ domain, ...data }) => ({ domain, data })));
  await directory.upsertPeople(
    people.map((person) => ({
      email: person.email,
      linkedin: normalizeLinkedinProfile(person.linkedin),
      company_domain: person.company_domain,
      data: {
        name: person.name,
        role: person.role,
        email: { work: person.email, is_valid: true },
        social: { linkedin: person.linkedin, is_linkedin_valid: true },
        location: person.location,
      },
    })),
  );
  return { companies: companies.length, people: people.length };
}
