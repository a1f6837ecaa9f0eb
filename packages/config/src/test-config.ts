import type { AppConfig } from './config.types.js';
import { loadConfig } from './load-config.js';

/** A config for tests: defaults of the schema, overridden by the given variables, never reading `.env`. */
export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO_CATALOGUE: 'false', ...env },
    { dotenv: false },
  );
}
