import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { migrations } from '@readlib/data';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

// README: `pnpm cli migrate` applies database migrations and exits; it says what it applied.
describe('pnpm cli migrate', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const migrate = async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', MAIN, 'migrate'], {
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATABASE_URL: join(dir, 'library.db'),
        STORAGE_DIR: join(dir, 'store'),
        DEMO_CATALOGUE: 'false',
      },
    });
    return stdout.trim().split('\n');
  };

  it('names each migration it applies, then reports an up-to-date schema', async () => {
    const names = Object.keys(migrations).sort();
    expect(await migrate()).toEqual([...names.map((n) => `applied ${n}`), 'database schema migrated']);
    expect(await migrate()).toEqual(['database schema is up to date']);
  }, 60_000);
});
