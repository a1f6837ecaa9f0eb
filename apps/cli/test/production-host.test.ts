import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { refusingPostgresUrl } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAIN, runCli, runCliStreams, TSX } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const repoFile = (path: string) => readFileSync(join(ROOT, path), 'utf8');

// On a production host the CLI names the database it acts on (the SQLite default is easy to fall
// into when the environment file is not loaded), needs no store for database-only commands, and an
// error names the command and the database.
describe('the CLI on a production host', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-host-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('says on stderr which database a command uses before it acts, and when that is the default', async () => {
    const own = await runCliStreams(dir, ['migrate']);
    expect(own.code).toBe(0);
    expect(own.stderr.split('\n')[0]).toBe(`database: SQLite ${join(dir, 'library.db')}`);
    // no DATABASE_URL: the SQLite file of the working directory, said as such
    const defaulted = await runCliStreams(dir, ['operator:create', 'ops'], { DATABASE_URL: '' }, dir);
    expect(defaulted.code).toBe(0);
    expect(defaulted.stderr.split('\n')[0]).toBe(
      `database: SQLite ${join(dir, 'data', 'library.db')} (the default: DATABASE_URL is not set)`,
    );
  }, 60_000);

  it('a PostgreSQL it cannot reach: each command names itself, the database (no password) and the cause', async () => {
    const url = (await refusingPostgresUrl()).replace('postgres@', 'postgres:s3cret@');
    const shown = url.replace(':s3cret', '');
    for (const args of [['migrate'], ['operator:create', 'ops'], ['import', dir]]) {
      const { code, stderr } = await runCliStreams(dir, args, { DATABASE_URL: url });
      expect(code, args[0]).toBe(1);
      const [line, error, ...rest] = stderr.trim().split('\n');
      expect(line).toBe(`database: PostgreSQL ${shown}`);
      expect(error).toMatch(
        new RegExp(
          `^error: ${args[0]}: cannot reach the database at ${shown.replace(/[.?]/g, '\\$&')}: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+$`,
        ),
      );
      expect(rest).toEqual([]);
      expect(stderr).not.toContain('s3cret');
    }
  }, 60_000);

  it('a configuration problem names the command and the variable', async () => {
    expect(
      await runCli(dir, ['operator:create', 'ops'], { DATABASE_URL: 'postgres://ops:pa/ss@db:5432/readlib' }),
    ).toEqual({
      code: 1,
      out: 'error: operator:create: invalid configuration: DATABASE_URL is not a valid postgres:// URL (postgres://user:password@host:port/database): check the host and the port, and percent-encode any / ? # @ in the user or password',
    });
    expect(await runCli(dir, ['migrate'], { LOG_LEVEL: 'verbose' })).toEqual({
      code: 1,
      out: 'error: migrate: invalid configuration: LOG_LEVEL is "verbose", expected one of: fatal, error, warn, info, debug, trace, silent',
    });
  }, 60_000);

  it('commands that never touch the store do not need STORAGE_DIR; import and backup still do', async () => {
    // a path no process can create a folder at, whoever runs the tests (root included)
    writeFileSync(join(dir, 'a-file'), '');
    const env = { STORAGE_DIR: join(dir, 'a-file', 'storage'), OPERATOR_PASSWORD: 'long enough password' };
    for (const args of [
      ['migrate'],
      ['optimize'],
      ['operator:create', 'ops'],
      ['operator:password', 'ops'],
    ]) {
      const { code, out } = await runCli(dir, args, env);
      expect([code, out], args[0]).toEqual([0, expect.any(String)]);
    }
    for (const args of [
      ['import', dir],
      ['backup', join(dir, 'copy')],
    ]) {
      const { code, out } = await runCli(dir, args, env);
      expect([code, out], args[0]).toEqual([
        1,
        `error: ${args[0]}: STORAGE_DIR ${env.STORAGE_DIR} cannot be created: ENOTDIR: not a directory, mkdir '${env.STORAGE_DIR}'`,
      ]);
    }
    expect(existsSync(join(dir, 'copy'))).toBe(false);
  }, 60_000);

  it("deployment.md's upgrade moves /opt/readlib to a release folder once, then switches it by a rename", async () => {
    const doc = repoFile('docs/deployment.md');
    const line = (pattern: RegExp) => {
      const found = doc.split('\n').find((l) => pattern.test(l.trim()));
      expect(found, String(pattern)).toBeDefined();
      return found!
        .trim()
        .replace(/\s+#.*$/, '')
        .replaceAll('/opt/', `${dir}/opt/`);
    };
    const move = line(/^mkdir -p \/opt\/readlib-releases && mv /);
    const release = line(/^rel=\/opt\/readlib-releases\//);
    const switchTo = line(/^ln -sfn "\$rel" /);
    const sh = (script: string) =>
      promisify(execFile)('sh', ['-ec', script], { env: { PATH: process.env.PATH ?? '' } });
    const opt = join(dir, 'opt');

    // the layout before: a checkout at /opt/readlib, which a running replica has open
    mkdirSync(join(opt, 'readlib'), { recursive: true });
    writeFileSync(join(opt, 'readlib', 'build.txt'), 'old');
    await sh(move);
    expect(readlinkSync(join(opt, 'readlib'))).toBe(join(opt, 'readlib-releases', '0'));
    expect(readFileSync(join(opt, 'readlib', 'build.txt'), 'utf8')).toBe('old');

    // a new release, built beside it, then the switch
    const { stdout } = await sh(
      `${release}; mkdir -p "$rel"; echo new > "$rel/build.txt"; ${switchTo}; echo "$rel"`,
    );
    const rel = stdout.trim();
    expect(readlinkSync(join(opt, 'readlib'))).toBe(rel);
    expect(readFileSync(join(opt, 'readlib', 'build.txt'), 'utf8')).toBe('new\n');
    // the previous release is left whole for the replicas still running it; no link left half made
    expect(readFileSync(join(opt, 'readlib-releases', '0', 'build.txt'), 'utf8')).toBe('old');
    expect(readdirSync(opt).sort()).toEqual(['readlib', 'readlib-releases']);
    // the units start in the link, resolved at each start
    for (const unit of ['readlib-migrate.service', 'readlib-reader@.service', 'readlib-admin@.service'])
      expect(repoFile(`deploy/systemd/${unit}`)).toContain('WorkingDirectory=/opt/readlib\n');
  });

  it("deployment.md's recipe runs a command with the environment file, wherever it is started", async () => {
    const doc = repoFile('docs/deployment.md');
    const script = /^runuser -u readlib -- sh -c '([^']+)' readlib-cli migrate$/m.exec(doc)?.[1];
    expect(script).toBeDefined();
    // the entry point the migrate unit runs, the file deploy/ installs, the folder the units run in
    const unit = repoFile('deploy/systemd/readlib-migrate.service');
    expect(unit).toContain('ExecStart=/usr/bin/node apps/cli/dist/main.js migrate');
    expect(unit).toContain('EnvironmentFile=/etc/readlib/readlib.env');
    expect(unit).toContain('WorkingDirectory=/opt/readlib');
    // a database that answers only later (a first boot) is waited for, not given up on
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^StartLimitIntervalSec=0$/m);
    const env = join(dir, 'readlib.env');
    writeFileSync(
      env,
      repoFile('deploy/readlib.env.example')
        .replace(/^DATABASE_URL=.*$/m, `DATABASE_URL=${join(dir, 'library.db')}`)
        .replace(/^STORAGE_DIR=.*$/m, `STORAGE_DIR=${join(dir, 'store')}`)
        .replace(/CHANGE-ME[\w-]*/g, 'x'.repeat(40)),
    );
    const local = script!
      .replace('/etc/readlib/readlib.env', env)
      .replace('cd /opt/readlib', `cd ${ROOT}`)
      .replace('node apps/cli/dist/main.js', `node --conditions=source --import ${TSX} ${MAIN}`);
    expect(local).not.toMatch(/\/etc\/readlib|\/opt\/readlib|dist\/main/);
    // started elsewhere, with nothing of the caller's configuration
    const { stdout, stderr } = await promisify(execFile)('sh', ['-c', local, 'readlib-cli', 'migrate'], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(stderr.split('\n')[0]).toBe(`database: SQLite ${join(dir, 'library.db')}`);
    expect(stdout.trim().split('\n').at(-1)).toBe('database schema migrated');
  }, 60_000);
});
