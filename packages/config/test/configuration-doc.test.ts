import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../src/index.js';

describe('docs/configuration.md stays true', () => {
  it('documents every environment variable of the schema in its table', () => {
    const doc = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
    const rows = doc.split('\n').filter((line) => line.startsWith('| `'));
    const missing = Object.keys(EnvSchema.properties).filter(
      (name) => !rows.some((row) => row.split('|')[1]?.includes(`\`${name}\``)),
    );
    expect(missing).toEqual([]);
  });
});
