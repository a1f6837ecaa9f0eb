import { defineConfig } from 'vitest/config';
import { sourceResolve } from '../../vitest.source.js';
import { contractDefines } from './contract-limits';

export default defineConfig({
  ...sourceResolve,
  define: contractDefines(),
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // one browser and one pair of services at a time on a two-core machine
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
