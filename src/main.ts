import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp, drainOnSignals, exitOnStartupFailure } from './app.factory';
import { loadConfig } from './config/config';
import { startupLogger } from './shared/infrastructure/logging';
import { limitHeapGrowth } from './config/heap';
import { prepareDatabase } from './database/bootstrap';

async function main(): Promise<void> {
  // Before the first full collection sizes the heap (see heap.ts).
  limitHeapGrowth();
  const config = loadConfig();
  // JSON from the first line when stdout is not a terminal (readable lines on one).
  Logger.overrideLogger(startupLogger(config));
  const logger = new Logger('Main');
  const ran = await prepareDatabase(config.databaseUrl, config.database);
  if (ran.length > 0) logger.log(`Applied migrations: ${ran.join(', ')}`);
  if (config.cursorSecretGenerated) {
    logger.warn('CURSOR_SECRET is not set: using a random secret, so cursors do not survive a restart or work across instances.');
  }
  if (config.secretsKeyDefault) {
    logger.warn('SECRETS_KEY is not set: webhook secrets are encrypted with the built-in development key. Set your own in production.');
  }
  const app = await createApp(config);
  await app.listen(config.port);
  drainOnSignals(app, logger);
  logger.log(`Listening on port ${config.port}`);
}

main().catch(exitOnStartupFailure);
