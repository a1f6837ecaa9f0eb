import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../src/index.js';

describe('README stays true', () => {
  it('documents every environment variable of the schema in its configuration table', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const missing = Object.keys(EnvSchema.properties).filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
