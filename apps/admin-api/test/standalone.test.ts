import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, testConfig } from '@readlib/config';
import type { DbConfig } from '@readlib/data';
import { refusingPostgresUrl, testDialects } from '@readlib/data/testing';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/index.js';
import { JWT_SECRET } from './helpers.js';

const dialects = await testDialects();
const APP_DIR = new URL('..', import.meta.url).pathname;

function databaseUrl(config: DbConfig): string {
  if (config.dialect === 'sqlite') return config.file;
  if (!config.searchPath) return config.url;
  return `${config.url}?options=${encodeURIComponent(`-c search_path=${config.searchPath}`)}`;
}

/** Runs `src/server.ts` (tsx) with only the given configuration; resolves with exit code and output. */
function runServer(env: Record<string, string>): Promise<{ code: number; out: string }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/server.ts'], {
    cwd: APP_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code: code ?? -1, out })));
}

describe('the standalone admin server without a database', () => {
  it('refuses plainly, naming where it looked, and creates nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'readlib-admin-none-'));
    try {
      const missing = join(dir, 'data', 'library.db');
      const { code, out } = await runServer({
        DATABASE_URL: missing,
        STORAGE_DIR: join(dir, 'data', 'storage'),
        ADMIN_PORT: '0',
      });
      expect({ code, out }).toEqual({
        code: 1,
        out: `admin-api: cannot start: there is no database at ${missing}: create it with \`pnpm cli migrate\` (run in the repository with the same DATABASE_URL), or set DATABASE_URL to the database to serve\n`,
      });
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe.each(dialects)(
  'the standalone admin server and the schema on $name (issue: scale-out §2)',
  (dialect) => {
    it('refuses to start on a database whose schema is newer than this build, and says why', async () => {
      const h = await dialect.create();
      const storage = mkdtempSync(join(tmpdir(), 'readlib-admin-standalone-'));
      try {
        await h.db
          .insertInto('kysely_migration' as never)
          .values({ name: '2999-01-01T0000-from-the-future', timestamp: new Date().toISOString() } as never)
          .execute();
        const { code, out } = await runServer({
          DATABASE_URL: databaseUrl(h.config),
          STORAGE_DIR: storage,
          ADMIN_PORT: '0',
        });
        expect(code).toBe(1);
        expect(out).toMatch(/admin-api: cannot start: database schema is ahead .*deploy that version/);
        // nothing was written: no operator was created on the refused database
        expect(await h.db.selectFrom('operators').select('id').execute()).toEqual([]);
      } finally {
        await h.destroy();
        rmSync(storage, { recursive: true, force: true });
      }
    }, 60_000);
  },
);

// A PostgreSQL that cannot be reached is reported as such, never as an empty schema.
describe('the standalone admin server with a database it cannot reach', () => {
  it('exits 1 naming where it looked and why, in one line, without the password', async () => {
    const url = (await refusingPostgresUrl()).replace('postgres@', 'postgres:s3cret@');
    const storage = mkdtempSync(join(tmpdir(), 'readlib-admin-refused-'));
    const { code, out } = await runServer({ DATABASE_URL: url, STORAGE_DIR: storage, ADMIN_PORT: '0' });
    rmSync(storage, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(out).toMatch(
      /^admin-api: cannot start: cannot reach the database at postgres:\/\/postgres@127\.0\.0\.1:\d+\/test: connect ECONNREFUSED 127\.0\.0\.1:\d+\n$/,
    );
  }, 30_000);
});

describe('replicas need one token secret (issue: scale-out §1)', () => {
  it('refuses to build with REDIS_URL and a generated JWT secret, before touching Redis', async () => {
    const config = testConfig({ REDIS_URL: 'redis://127.0.0.1:1' });
    expect(config.jwt.generatedSecret).toBe(true);
    const err = await buildApp(config, { db: undefined as never, logger: false }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/JWT_SECRET .* is required when REDIS_URL is set/);
    // with a configured secret the next obstacle is Redis itself, named in the message
    const withSecret = testConfig({ REDIS_URL: 'redis://127.0.0.1:1', JWT_SECRET });
    await expect(buildApp(withSecret, { db: undefined as never, logger: false })).rejects.toThrow(
      /Redis at redis:\/\/127\.0\.0\.1:1\/? is unreachable/,
    );
  });
});
