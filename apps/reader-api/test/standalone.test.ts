import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DbConfig } from '@readlib/data';
import { refusingPostgresUrl } from '@readlib/data/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialects } from './helpers.js';

const APP_DIR = new URL('..', import.meta.url).pathname;

/** DATABASE_URL for a test database; a PostgreSQL test schema travels as the connection's search_path. */
function databaseUrl(config: DbConfig): string {
  if (config.dialect === 'sqlite') return config.file;
  if (!config.searchPath) return config.url;
  return `${config.url}?options=${encodeURIComponent(`-c search_path=${config.searchPath}`)}`;
}

/** `src/server.ts` (tsx) with only the given configuration (nothing inherited but PATH and HOME). */
function server(env: Record<string, string>): {
  child: ChildProcess;
  out: () => string;
  exit: Promise<number>;
} {
  let out = '';
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/server.ts'], {
    cwd: APP_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exit = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  return { child, out: () => out, exit };
}

/**
 * The address the server says it listens at. It fails with everything the server printed when the
 * server exits first or says nothing within `ms` (a loaded machine compiles the sources slowly).
 */
function listeningAt(s: ReturnType<typeof server>, ms = 90_000): Promise<string> {
  const found = () => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(s.out())?.[1];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no "Server listening" within ${ms} ms:\n${s.out()}`)), ms);
    const done = (error: Error | null, url?: string) => {
      clearTimeout(timer);
      s.child.stdout?.off('data', check);
      s.child.stderr?.off('data', check);
      if (error) reject(error);
      else resolve(url!);
    };
    const check = () => {
      const url = found();
      if (url) done(null, url);
    };
    s.child.stdout?.on('data', check);
    s.child.stderr?.on('data', check);
    void s.exit.then((code) => done(new Error(`the server exited (${code}) before listening:\n${s.out()}`)));
    check();
  });
}

describe.each(dialects)(
  'the standalone reader server and the schema on $name (issue: scale-out §2)',
  (dialect) => {
    it('starts on a current schema, and refuses a newer or an unmigrated one with advice', async () => {
      const h = await dialect.create();
      const storage = mkdtempSync(join(tmpdir(), 'readlib-standalone-'));
      const env = {
        DATABASE_URL: databaseUrl(h.config),
        STORAGE_DIR: storage,
        READER_PORT: '0',
        LOG_LEVEL: 'info',
      };
      try {
        const ok = server(env);
        const url = await listeningAt(ok);
        expect(((await (await fetch(`${url}/readyz`)).json()) as { status: string }).status).toBe('ok');
        // the memos are built before the port opens, and the log says what was built
        const warmed = ok.out().indexOf('"msg":"warmed up"');
        expect(warmed).toBeGreaterThan(-1);
        expect(warmed).toBeLessThan(ok.out().indexOf('Server listening'));
        ok.child.kill('SIGTERM');
        expect(await ok.exit).toBe(0);

        await h.db
          .insertInto('kysely_migration' as never)
          .values({ name: '2999-01-01T0000-from-the-future', timestamp: new Date().toISOString() } as never)
          .execute();
        const ahead = server(env);
        expect(await ahead.exit).toBe(1);
        expect(ahead.out()).toMatch(
          /reader-api: cannot start: database schema is ahead .*: the database was migrated by a newer version/,
        );

        await sql`delete from kysely_migration`.execute(h.db);
        const empty = server(env);
        expect(await empty.exit).toBe(1);
        expect(empty.out()).toMatch(
          /reader-api: cannot start: database schema is empty .*run migrate once \(`pnpm cli migrate`; where the build is deployed, `node apps\/cli\/dist\/main\.js migrate` or `systemctl restart readlib-migrate`\), then start the services$/m,
        );
      } finally {
        await h.destroy();
        rmSync(storage, { recursive: true, force: true });
      }
    }, 240_000);
  },
);

describe('the standalone reader server without a database', () => {
  it('refuses plainly, naming where it looked, and creates nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'readlib-standalone-none-'));
    try {
      const missing = join(dir, 'data', 'library.db');
      const run = server({
        DATABASE_URL: missing,
        STORAGE_DIR: join(dir, 'data', 'storage'),
        READER_PORT: '0',
      });
      expect(await run.exit).toBe(1);
      expect(run.out()).toBe(
        `reader-api: cannot start: there is no database at ${missing}: create it with \`pnpm cli migrate\` (run in the repository with the same DATABASE_URL), or set DATABASE_URL to the database to serve\n`,
      );
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

// A PostgreSQL that cannot be reached is reported with its cause, never as "database schema is
// empty ... run pnpm cli migrate".
describe('the standalone reader server with a database it cannot reach', () => {
  const refusedWith = async (url: string) => {
    const storage = mkdtempSync(join(tmpdir(), 'readlib-standalone-refused-'));
    try {
      const run = server({ DATABASE_URL: url, STORAGE_DIR: storage, READER_PORT: '0' });
      expect(await run.exit).toBe(1);
      return run.out();
    } finally {
      rmSync(storage, { recursive: true, force: true });
    }
  };

  it('exits 1 with the cause in one line, without the password or a stack trace', async () => {
    const url = (await refusingPostgresUrl()).replace('postgres@', 'postgres:s3cret@');
    const at = url.replace(':s3cret', '');
    expect(await refusedWith(url)).toMatch(
      new RegExp(
        `^reader-api: cannot start: cannot reach the database at ${at}: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\n$`,
      ),
    );
  }, 90_000);

  it.runIf(dialects.some((d) => d.name === 'postgres'))(
    'names a database that does not exist',
    async () => {
      const url = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
      url.pathname = '/fix_deploy_absent';
      expect(await refusedWith(url.toString())).toBe(
        `reader-api: cannot start: cannot reach the database at ${url}: database "fix_deploy_absent" does not exist\n`,
      );
    },
    90_000,
  );
});
