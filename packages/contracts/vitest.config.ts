import { defineConfig } from 'vitest/config';
import { sourceResolve } from '../../vitest.source.js';

export default defineConfig({ ...sourceResolve, test: { testTimeout: 30_000, hookTimeout: 30_000 } });
