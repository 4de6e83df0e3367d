import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppModule } from './app.module';
import { loadConfig } from './config/config';
import { buildOpenApiDocument } from './openapi';

/**
 * Writes `openapi.json` at the repository root. Preview mode resolves the modules without
 * instantiating providers, so no database or Redis is needed.
 */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', RUN_WORKERS: 'false' });
  const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false, abortOnError: false });
  const target = resolve(__dirname, '..', 'openapi.json');
  writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`);
  await app.close();
  console.error(`Wrote ${target}`);
}

main().catch((error: unknown) => {
  console.error('OpenAPI export failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
