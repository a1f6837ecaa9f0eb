import { testConfig } from '@readlib/config';
import { createBaseApp } from '../src/index.js';
import type { LogDestination } from '../src/request-log.js';

/** A reader base app whose log lines, from `level` up, go to `logStream`. */
export const appLoggingTo = (logStream: LogDestination, level = 'info') =>
  createBaseApp({
    config: testConfig({ LOG_LEVEL: level }),
    family: 'reader',
    openapi: { title: 't', version: '1', description: 'd' },
    ready: async () => true,
    logStream,
  });
