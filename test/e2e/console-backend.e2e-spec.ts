import { INestApplicationContext, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { CoreModule } from '../../src/core.module';
import { CompetitorsService } from '../../src/modules/kb/competitors/competitor.resource';
import { IcpsService } from '../../src/modules/kb/icps/icp.resource';
import { KbModule } from '../../src/modules/kb/kb.module';
import { TargetPagesService } from '../../src/modules/kb/target-pages/target-page.resource';
import { AppError } from '../../src/shared/application/app-error';
import { WorkspaceContext } from '../../src/shared/application/workspace-context';
import { expectError } from '../support/assertions';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';

/** A provider of the console backend's own, given a KB service by its class. */
@Injectable()
class ConsoleIcps {
  constructor(readonly icps: IcpsService) {}
}

/** A second application, as the console backend builds it: our modules, its own process. */
@Module({ imports: [KbModule], providers: [ConsoleIcps] })
class ConsoleBackendModule {}

describe('a console backend importing the KB modules works on the same data as the API', () => {
  let t: TestApp;
  let consoleApp: INestApplicationContext;
  let ws: TestWorkspace;
  let ctx: WorkspaceContext;

  beforeAll(async () => {
    t = await startTestApp();
    const moduleRef = await Test.createTestingModule({
      imports: [ConsoleBackendModule, CoreModule.forRoot(t.config), KbModule],
    }).compile();
    consoleApp = await moduleRef.init();
  });
  afterAll(async () => {
    await consoleApp.close();
    await t.close();
  });
  beforeEach(async () => {
    ws = await t.newWorkspace();
    ctx = WorkspaceContext.forConsole(ws.workspace_id, 'usr_console_7');
  });

  it("injects each resource's service by its own class", () => {
    expect(consoleApp.get(ConsoleIcps).icps).toBe(consoleApp.get(IcpsService));
    expect(consoleApp.get(IcpsService)).toBeInstanceOf(IcpsService);
    expect(consoleApp.get(TargetPagesService).resource.path).toBe('target-pages');
  });

  it('console creates and edits; the API sees it, with the console as creator', async () => {
    const icps = consoleApp.get(IcpsService);
    const created = await icps.create(ctx, { name: 'Enterprise', short_name: 'ent', description: 'Large companies' });
    const viaApi = await t.http.get(`/v1/kb/icps/${created.id}`).set('Authorization', ws.auth);
    expect(viaApi.status).toBe(200);
    expect(viaApi.body).toEqual(created);
    expect(viaApi.body.created_by).toEqual({ type: 'console', id: 'usr_console_7' });

    const edited = await icps.update(ctx, created.id, { description: 'Companies over 1,000 employees' });
    const afterEdit = await t.http.get(`/v1/kb/icps/${created.id}`).set('Authorization', ws.auth);
    expect(afterEdit.body).toEqual(edited);
    expect(afterEdit.body.description).toBe('Companies over 1,000 employees');

    await icps.remove(ctx, created.id);
    expectError(await t.http.get(`/v1/kb/icps/${created.id}`).set('Authorization', ws.auth), 404, 'not_found');
  });

  it('the API creates and edits; the console sees it', async () => {
    const res = await t.http
      .post('/v1/kb/target-pages')
      .set('Authorization', ws.auth)
      .send({ name: 'Pricing', short_name: 'pricing', url: 'example.com/pricing/', description: 'Buying intent' });
    expect(res.status).toBe(201);
    const pages = consoleApp.get(TargetPagesService);
    expect(await pages.get(ctx, res.body.id)).toEqual(res.body);

    const patched = await t.http
      .patch(`/v1/kb/target-pages/${res.body.id}`)
      .set('Authorization', ws.auth)
      .send({ url: 'https://example.com/pricing?plan=pro' });
    const seen = await pages.get(ctx, res.body.id);
    expect(seen).toEqual(patched.body);
    expect(seen.canonical_url).toBe('example.com/pricing?plan=pro');

    const page = await pages.list(ctx, { limit: 10 });
    expect(page.data).toEqual([patched.body]);

    await t.http.delete(`/v1/kb/target-pages/${res.body.id}`).set('Authorization', ws.auth).expect(204);
    await expect(pages.get(ctx, res.body.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('the console gets the same validation and conflict rules', async () => {
    const competitors = consoleApp.get(CompetitorsService);
    await expect(competitors.create(ctx, { name: 'Rival', short_name: 'rival', domain: 'not a domain' })).rejects.toMatchObject({
      code: 'validation_error',
      param: 'domain',
    });
    await competitors.create(ctx, { name: 'Rival', short_name: 'rival', domain: 'Rival.com' });
    const duplicate = competitors.create(ctx, { name: 'Rival 2', short_name: 'rival', domain: 'rival2.com' });
    await expect(duplicate).rejects.toBeInstanceOf(AppError);
    await expect(duplicate).rejects.toMatchObject({ code: 'conflict', param: 'short_name' });
    const list = await t.http.get('/v1/kb/competitors').set('Authorization', ws.auth);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].domain).toBe('rival.com');
  });

  it("keeps the console inside its workspace: another workspace's record is not found", async () => {
    const other = await t.newWorkspace();
    const res = await t.http
      .post('/v1/kb/icps')
      .set('Authorization', other.auth)
      .send({ name: 'Theirs', short_name: 'theirs', description: 'Not ours' });
    const icps = consoleApp.get(IcpsService);
    await expect(icps.get(ctx, res.body.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(icps.update(ctx, res.body.id, { name: 'Mine now' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await icps.list(ctx, { limit: 100 })).data).toEqual([]);
  });

  it('refuses to run without a workspace (tenancy fails closed)', async () => {
    const icps = consoleApp.get(IcpsService);
    await expect(icps.list(undefined as unknown as WorkspaceContext, { limit: 10 })).rejects.toThrow(/workspace/i);
    await expect(
      icps.create({ workspaceId: '', actor: { type: 'console', id: 'x' } } as unknown as WorkspaceContext, {
        name: 'a',
        short_name: 'b',
        description: 'c',
      }),
    ).rejects.toThrow(/workspace/i);
    expect(() => WorkspaceContext.forConsole('not-a-workspace', 'usr')).toThrow();
  });
});
