import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrations } from '@readlib/data';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// README: `pnpm cli migrate` applies database migrations and exits; it says what it applied.
describe('pnpm cli migrate', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const migrate = async () => {
    const { code, out } = await runCli(dir, ['migrate']);
    expect(code).toBe(0);
    return out.split('\n');
  };

  it('names each migration it applies, then reports an up-to-date schema', async () => {
    const names = Object.keys(migrations).sort();
    expect(await migrate()).toEqual([...names.map((n) => `applied ${n}`), 'database schema migrated']);
    expect(await migrate()).toEqual(['database schema is up to date']);
  }, 60_000);
});
