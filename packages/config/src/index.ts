export type { AppConfig, DatabaseConfig } from './config.types.js';
export { databaseLocation, describeDatabase, errorText, unreachableDatabase } from './database-location.js';
export { type Env, EnvSchema } from './env.schema.js';
export { ConfigError, type LoadConfigOptions, loadConfig } from './load-config.js';
export { testConfig } from './test-config.js';
