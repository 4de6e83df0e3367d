import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoLogger } from 'nestjs-pino';
import { ConfigError, loadConfig } from './config/config';
import { startupLogger } from './shared/infrastructure/logging';
import { prepareDatabase } from './database/bootstrap';
import { PIPELINE_QUEUES } from './modules/pipeline/queues';
import { WorkerModule } from './worker.module';

/**
 * Pipeline workers on their own (`npm run start:worker`). On SIGTERM/SIGINT the workers stop
 * taking jobs, finish the ones in hand (or leave them to be picked up again), and close their
 * connections.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // JSON from the first line when stdout is not a terminal (readable lines on one).
  Logger.overrideLogger(startupLogger(config));
  const logger = new Logger('Worker');
  await prepareDatabase(config.databaseUrl, config.database);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  // The same structured logger as the API (JSON, or readable lines on a terminal).
  app.useLogger(app.get(PinoLogger));
  // A stop on SIGTERM/SIGINT is an orderly end: exit 0 once the workers have closed.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  await app.init();
  logger.log(`Workers running: pipeline (${PIPELINE_QUEUES.join(', ')}), webhook dispatch and delivery, events retention`);
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError ? error.message : `Worker start-up failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
