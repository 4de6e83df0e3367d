import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { DATABASE_TIMEOUT_DEFAULTS } from './src/config/config';
import { dataSourceOptions } from './src/database/data-source';

/**
 * DataSource for the TypeORM CLI, e.g.
 * `npx typeorm-ts-node-commonjs migration:generate -d ormconfig.ts src/database/migrations/<name>`.
 * The application itself runs migrations at start-up (`npm start`) or with `npm run migration:run`.
 */
export default new DataSource(
  dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/buyer_intel', DATABASE_TIMEOUT_DEFAULTS, 'cli'),
);
