import { defineConfig } from 'vitest/config';
import { sourceResolve } from '../../vitest.source.js';

export default defineConfig({
  ...sourceResolve,
  test: {
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // the fault suites spawn servers and time their kills: one file at a time keeps them honest on 2 cores
    fileParallelism: false,
  },
});
