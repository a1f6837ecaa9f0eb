export type { AppConfig, DatabaseConfig } from './config.types.js';
export { EnvSchema, type Env } from './env.schema.js';
export { ConfigError, type LoadConfigOptions, loadConfig } from './load-config.js';
export { testConfig } from './test-config.js';
