import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp, drainOnSignals, exitOnStartupFailure } from './app.factory';
import { loadConfig } from './config/config';
import { startupLogger } from './shared/infrastructure/logging';
import { prepareDatabase } from './database/bootstrap';

/**
 * The console on its own (ADR 0058): its pages and `/console/api/…` on CONSOLE_PORT, the same
 * modules and services as the API, but not the public `/v1` and `/ingest/v1` routes, and no workers.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  Logger.overrideLogger(startupLogger(config));
  const logger = new Logger('Console');
  const ran = await prepareDatabase(config.databaseUrl, config.database);
  if (ran.length > 0) logger.log(`Applied migrations: ${ran.join(', ')}`);
  const app = await createApp(config, { api: false, console: true });
  await app.listen(config.console.port);
  drainOnSignals(app, logger);
  logger.log(`Console listening on port ${config.console.port}`);
}

main().catch(exitOnStartupFailure);
