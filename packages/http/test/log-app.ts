import { testConfig } from '@readlib/config';
import { createBaseApp } from '../src/index.js';
import type { LogDestination } from '../src/request-log.js';

/** A reader base app whose log lines, from `level` up, go to `logStream`; `env` sets more variables. */
export const appLoggingTo = (logStream: LogDestination, level = 'info', env: Record<string, string> = {}) =>
  createBaseApp({
    config: testConfig({ LOG_LEVEL: level, ...env }),
    family: 'reader',
    openapi: { title: 't', version: '1', description: 'd' },
    ready: async () => true,
    logStream,
  });
