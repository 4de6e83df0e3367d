#!/usr/bin/env node
import 'reflect-metadata';
import { INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, CommanderError, Option } from 'commander';
import { CliModule } from './cli.module';
import { ConfigError, loadConfig } from './config/config';
import { prepareDatabase } from './database/bootstrap';
import { ingestFile, IngestError } from './cli/ingest';
import { ActivitiesModule } from './modules/activities/activities.module';
import { ActivitiesRepository } from './modules/activities/activities.repository';
import { ActivitiesService } from './modules/activities/activities.service';
import { DirectoryImportError, DirectoryImportService } from './modules/directory/directory-import.service';
import { DirectoryModule } from './modules/directory/directory.module';
import { selectTypes } from './modules/events/event-types';
import { EventsModule } from './modules/events/events.module';
import { EventsService } from './modules/events/events.service';
import { BulkSeedService } from './modules/seed/bulk-seed.service';
import { ConsoleUsersModule } from './modules/console/console.module';
import { ConsoleUsersService } from './modules/console/console-users.service';
import { DemoSeedModule } from './modules/seed/demo-seed.module';
import { DemoSeedService } from './modules/seed/demo-seed.service';
import { SeedModule } from './modules/seed/seed.module';
import { WorkspaceContext } from './shared/application/workspace-context';
import { OperationError, WorkspacesService } from './modules/workspaces/workspaces.service';
import { ProgressBar } from './shared/infrastructure/progress-bar';

/**
 * Operations CLI (DESIGN §2). Each command prints exactly one JSON object on stdout (`seed demo
 * --format text` prints plain lines instead); messages go to stderr; failures exit non-zero.
 */

class CliFailure extends Error {}

async function withContext<T>(run: (app: INestApplicationContext) => Promise<T>, modules: Array<Type<unknown>> = []): Promise<T> {
  const config = loadConfig();
  await prepareDatabase(config.databaseUrl, config.database);
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, modules), { logger: ['error'] });
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

function print(result: unknown): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

export function buildProgram(): Command {
  const program = new Command('cli')
    .description('Operations for the buyer-intelligence service')
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stderr.write(s), writeErr: (s) => process.stderr.write(s) });

  program
    .command('migrate')
    .description('create the database if needed and apply pending migrations')
    .action(async () => {
      const config = loadConfig();
      print({ applied: await prepareDatabase(config.databaseUrl, config.database) });
    });

  const workspace = program.command('workspace').description('manage workspaces');
  workspace
    .command('create')
    .description('create a workspace and its first (write) API key')
    .requiredOption('--name <name>', 'workspace name')
    .action(async (options: { name: string }) => {
      print(await withContext((app) => app.get(WorkspacesService).createWorkspace(options.name)));
    });

  workspace
    .command('list')
    .description('list the workspaces, oldest first, with their active key counts')
    .action(async () => {
      print({ data: await withContext((app) => app.get(WorkspacesService).listWorkspaces()) });
    });

  const key = program.command('key').description('manage API keys');
  key
    .command('list')
    .description("list a workspace's keys (ids, scope, prefix, created, last used, revoked; never the secret)")
    .requiredOption('--workspace <id>', 'workspace id (wor_…)')
    .action(async (options: { workspace: string }) => {
      print({ data: await withContext((app) => app.get(WorkspacesService).listKeys(options.workspace)) });
    });
  key
    .command('create')
    .description('create an API key for a workspace')
    .requiredOption('--workspace <id>', 'workspace id (wor_…)')
    .addOption(new Option('--scope <scope>', 'key scope').choices(['read', 'write']).default('write'))
    .action(async (options: { workspace: string; scope: 'read' | 'write' }) => {
      print(await withContext((app) => app.get(WorkspacesService).createKey(options.workspace, options.scope)));
    });
  key
    .command('revoke')
    .description('revoke an API key; every API process refuses it as soon as the revocation is announced (milliseconds)')
    .requiredOption('--key-id <id>', 'key id (key_…)')
    .action(async (options: { keyId: string }) => {
      print(await withContext((app) => app.get(WorkspacesService).revokeKey(options.keyId)));
    });

  const user = program.command('user').description('manage console users (each belongs to one workspace)');
  user
    .command('create')
    .description('create a console user; prints a one-time password, shown this once')
    .requiredOption('--workspace <id>', 'workspace id (wor_…)')
    .requiredOption('--email <email>', "the user's email, with which they sign in")
    .action(async (options: { workspace: string; email: string }) => {
      print(await withContext((app) => app.get(ConsoleUsersService).createUser(options.workspace, options.email), [ConsoleUsersModule]));
    });
  user
    .command('list')
    .description("list a workspace's console users (never a password)")
    .requiredOption('--workspace <id>', 'workspace id (wor_…)')
    .action(async (options: { workspace: string }) => {
      print({ data: await withContext((app) => app.get(ConsoleUsersService).listUsers(options.workspace), [ConsoleUsersModule]) });
    });
  user
    .command('revoke')
    .description('disable a console user; their sessions stop working at once')
    .requiredOption('--user <id>', 'user id (usr_…)')
    .action(async (options: { user: string }) => {
      print(await withContext((app) => app.get(ConsoleUsersService).revokeUser(options.user), [ConsoleUsersModule]));
    });

  const seed = program.command('seed').description('fill a workspace with data');
  seed
    .command('bulk')
    .description('generate Buyers and Signals set-based in SQL, for tests and benchmarks')
    .requiredOption('--workspace <id>', 'workspace id (wor_…)')
    .option('--buyers <n>', 'Buyers to add', wholeNumber, 0)
    .option('--signals <n>', "Signals to add (spread over the workspace's Buyers)", wholeNumber, 0)
    .option('--days <n>', 'spread timestamps over this many days back', wholeNumber, 180)
    .action(async (options: { workspace: string; buyers: number; signals: number; days: number }) => {
      const started = Date.now();
      const bar = new ProgressBar();
      const result = await withContext(
        (app) =>
          app
            .get(BulkSeedService)
            .seed({ workspaceId: options.workspace, buyers: options.buyers, signals: options.signals, days: options.days }, (p) =>
              bar.update(p.phase, p.done, p.total),
            ),
        [SeedModule],
      );
      print({ ...result, seconds: Math.round((Date.now() - started) / 100) / 10 });
    });

  seed
    .command('demo')
    .description('create a demo workspace with a knowledge base and run activities through the pipeline')
    .option('--activities <n>', 'activities to run through the pipeline', wholeNumber, 3000)
    .addOption(
      new Option('--format <format>', 'json: one JSON object; text: plain lines, the commands ready to paste')
        .choices(['json', 'text'])
        .default('json'),
    )
    .action(async (options: { activities: number; format: 'json' | 'text' }) => {
      const bar = new ProgressBar();
      const { port } = loadConfig();
      const result = await withContext(
        (app) => app.get(DemoSeedService).seed(options.activities, (phase, done, total) => bar.update(phase, done, total)),
        [DemoSeedModule],
      );
      const tries = tryCommands(result.api_key, port);
      const { console: user, ...seeded } = result;
      // The API process serves the console under /console (CONSOLE_ENABLED, on by default).
      const signIn = { url: `http://localhost:${port}/console`, email: user.email, password: user.password };
      if (options.format === 'json') {
        print({ ...seeded, console: signIn, try: tries });
        return;
      }
      // `name: value` lines in the JSON's order; the directory's counts as "180 companies, 713 people".
      const plain = (value: unknown): string =>
        typeof value === 'object' && value !== null
          ? Object.entries(value)
              .map(([k, v]) => `${String(v)} ${k}`)
              .join(', ')
          : String(value);
      const lines = Object.entries(seeded).map(([name, value]) => `${name}: ${plain(value)}`);
      const consoleLines = [`console: ${signIn.url}`, `console email: ${signIn.email}`, `console password: ${signIn.password}`];
      process.stdout.write(`${[...lines, '', ...consoleLines, '', ...tries].join('\n')}\n`);
    });

  program
    .command('ingest')
    .description('stream an NDJSON file of activities into the pipeline')
    .requiredOption('--workspace <id>', 'workspace id (wor_…)')
    .requiredOption('--file <path>', 'NDJSON file, one activity per line')
    .option('--wait', 'return only when the pipeline has finished these activities', false)
    .action(async (options: { workspace: string; file: string; wait: boolean }) => {
      const result = await withContext(
        async (app) => {
          const ctx = await operatorContext(app, options.workspace);
          return ingestFile(app.get(ActivitiesService), app.get(ActivitiesRepository), { ...options, ctx });
        },
        [ActivitiesModule],
      );
      print(result);
    });

  const directory = program.command('directory').description('the enrichment directory');
  directory
    .command('import')
    .description('load companies and people (NDJSON) into the enrichment directory')
    .option('--companies <path>', 'NDJSON of companies (company_info fields plus domain)')
    .option('--people <path>', 'NDJSON of people (contact_info fields plus email, linkedin, company_domain)')
    .action(async (options: { companies?: string; people?: string }) => {
      if (!options.companies && !options.people) throw new CliFailure('give --companies and/or --people');
      const bar = new ProgressBar();
      const result = await withContext(
        async (app) => {
          const importer = app.get(DirectoryImportService);
          const companies = options.companies
            ? await importer.importCompanies(options.companies, (n) => bar.update('companies', n, n + 1))
            : 0;
          const people = options.people ? await importer.importPeople(options.people, (n) => bar.update('people', n, n + 1)) : 0;
          return { companies, people };
        },
        [DirectoryModule],
      );
      print(result);
    });

  const events = program.command('events').description('the events feed');
  events
    .command('tail')
    .description("follow a workspace's events: one JSON line per event, until interrupted")
    .requiredOption('--workspace <id>', 'workspace id (wor_…)')
    .option('--from-start', 'print every retained event first, instead of only new ones', false)
    .option('--cursor <cursor>', 'resume from a cursor (a resume_cursor of GET /v1/events)')
    .option('--type <types>', 'event types or wildcards, comma-separated (signal.created,buyer.*)')
    .option('--interval-ms <ms>', 'how often to poll once at the end', wholeNumber, 500)
    .action(async (options: { workspace: string; fromStart: boolean; cursor?: string; type?: string; intervalMs: number }) => {
      await withContext(
        async (app) => {
          const ctx = await operatorContext(app, options.workspace);
          await tailEvents(app.get(EventsService), ctx, options);
        },
        [EventsModule],
      );
    });

  return program;
}

/** Polls the feed and prints each event as a line until SIGINT or SIGTERM; the last position goes to stderr. */
async function tailEvents(
  feed: EventsService,
  ctx: WorkspaceContext,
  options: { fromStart: boolean; cursor?: string; type?: string; intervalMs: number },
): Promise<void> {
  let stopped = false;
  const stop = () => (stopped = true);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const type = options.type ? selectTypes(options.type, 'type') : undefined;
    let cursor = options.cursor ?? (options.fromStart ? undefined : await feed.endCursor(ctx, { type }));
    process.stderr.write('following the events (Ctrl-C to stop)\n');
    while (!stopped) {
      const page = await feed.list(ctx, { limit: 1_000, cursor, type });
      for (const event of page.data) process.stdout.write(`${JSON.stringify(event)}\n`);
      cursor = page.pagination.resume_cursor;
      if (page.pagination.next_cursor === null) await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
    }
    process.stderr.write(`resume with --cursor ${cursor}\n`);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** The workspace as the operator acts on it; fails when it does not exist. */
async function operatorContext(app: INestApplicationContext, workspaceId: string): Promise<WorkspaceContext> {
  if (!(await app.get(WorkspacesService).exists(workspaceId))) throw new OperationError(`No workspace ${workspaceId}`);
  return WorkspaceContext.forConsole(workspaceId, 'operations-cli');
}

/**
 * Commands to try the demo workspace with. Single quotes only, so a command pastes into a shell as
 * it is, and stays free of escapes inside JSON.
 */
function tryCommands(apiKey: string, port: number): string[] {
  const auth = `-H 'Authorization: Bearer ${apiKey}'`;
  return [
    `curl -s ${auth} 'http://localhost:${port}/v1/buyers?limit=5'`,
    `curl -s ${auth} 'http://localhost:${port}/v1/signals?type=website&trigger=filled_form&limit=5'`,
    `curl -s ${auth} 'http://localhost:${port}/v1/kb/icps'`,
  ];
}

function wholeNumber(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new CliFailure(`not a whole number: ${value}`);
  return Number(value);
}

async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    if (
      error instanceof OperationError ||
      error instanceof ConfigError ||
      error instanceof CliFailure ||
      error instanceof IngestError ||
      error instanceof DirectoryImportError
    ) {
      process.stderr.write(`error: ${error.message}\n`);
    } else {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 1;
  }
}

if (require.main === module) {
  void main(process.argv).then((code) => process.exit(code));
}
