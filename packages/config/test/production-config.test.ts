import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  databaseLocation,
  describeDatabase,
  loadConfig,
  unreachableDatabase,
} from '../src/index.js';

const load = (env: Record<string, string>) => loadConfig(env, { dotenv: false });
const EXAMPLE = fileURLToPath(new URL('../../../deploy/readlib.env.example', import.meta.url));

/** The assignments of deploy/readlib.env.example, each value as written. */
function exampleLines(): Array<[name: string, written: string]> {
  return readFileSync(EXAMPLE, 'utf8')
    .split('\n')
    .map((line) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line))
    .filter((m) => m !== null)
    .map((m) => [m[1]!, m[2]!]);
}

/**
 * deploy/readlib.env.example as systemd's EnvironmentFile reads its lines (systemd.exec(5)): the value
 * trimmed; one in single quotes taken verbatim inside them. The file holds no other quoting (a test
 * below makes sure).
 */
function example(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, written] of exampleLines()) {
    const value = written.trim();
    env[name] = /^'[^']*'$/.test(value) ? value.slice(1, -1) : value;
  }
  return env;
}

/** What `set -a; . <file>; set +a` gives, as NAME -> value, and what sh said on stderr. */
function throughSh(file: string): { env: Record<string, string>; stderr: string } {
  const run = spawnSync('sh', ['-c', 'set -a; . "$1"; set +a; exec env', 'sh', file], {
    env: {},
    encoding: 'utf8',
  });
  const env = Object.fromEntries(
    run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { env, stderr: run.stderr };
}

/** systemd's own reader of environment files (environment.d's generator, the same parser as EnvironmentFile=). */
const SYSTEMD_ENV_GENERATOR =
  '/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator';

/** The example with every placeholder replaced, as an operator leaves it. */
function edited(): Record<string, string> {
  return {
    ...example(),
    DATABASE_URL: 'postgres://readlib:s3cret@db.internal:5432/readlib',
    JWT_SECRET: 'a'.repeat(64),
    ADMIN_PASSWORD: 'a password of its own',
    METRICS_TOKEN: 'a scraper token',
  };
}

describe('production refuses the example placeholders', () => {
  it('the unedited deploy/readlib.env.example is refused in one line naming each placeholder', () => {
    expect(() => load(example())).toThrow(
      new ConfigError(
        'invalid configuration: JWT_SECRET, ADMIN_PASSWORD, METRICS_TOKEN, DATABASE_URL hold the CHANGE-ME placeholder of deploy/readlib.env.example: set values of your own when NODE_ENV=production',
      ),
    );
    expect(load(edited()).env).toBe('production');
  });

  it('names a single variable, whatever the case of the placeholder', () => {
    for (const name of ['JWT_SECRET', 'ADMIN_PASSWORD', 'METRICS_TOKEN'] as const) {
      const env = { ...edited(), [name]: `${'x'.repeat(24)}-change-Me-now` };
      expect(() => load(env), name).toThrow(
        `${name} holds the CHANGE-ME placeholder of deploy/readlib.env.example: set a value of your own when NODE_ENV=production`,
      );
    }
  });

  it('development keeps accepting them (docs/configuration.md)', () => {
    expect(load({ ...example(), NODE_ENV: 'development' }).jwt.secret).toMatch(/^CHANGE-ME/);
  });

  // the CLI recipe of docs/deployment.md reads the file with `sh` (set -a; . file): it must give the
  // same values as systemd's EnvironmentFile does
  it('the example reads the same through sh as through systemd', () => {
    const { env, stderr } = throughSh(EXAMPLE);
    expect(stderr).toBe('');
    for (const [name, value] of Object.entries(example())) expect(env[name], name).toBe(value);
    // its list of origins, with a space after the comma, is one value to both
    expect(example().CORS_ORIGIN).toBe('https://app.example.org, https://reader.example.org');
    expect(load({ ...edited(), CORS_ORIGIN: env.CORS_ORIGIN! }).corsOrigin).toEqual([
      'https://app.example.org',
      'https://reader.example.org',
    ]);
  });

  it('every value of the example holding a space, $, ` or \\ is in single quotes, as its header asks', () => {
    const unquoted = exampleLines().filter(
      ([, written]) => /[\s$`\\]/.test(written) && !/^'[^']*'$/.test(written),
    );
    expect(unquoted).toEqual([]);
    // what the rule prevents: unquoted, sh takes the origin after the space for a command
    const dir = mkdtempSync(join(tmpdir(), 'readlib-env-'));
    try {
      writeFileSync(join(dir, 'bare.env'), 'CORS_ORIGIN=https://a.example, https://b.example\n');
      const bare = throughSh(join(dir, 'bare.env'));
      expect(bare.env.CORS_ORIGIN).toBeUndefined();
      expect(bare.stderr).toMatch(/https:\/\/b\.example: not found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('systemd itself reads the example as sh does (its environment.d generator, one parser with EnvironmentFile)', (ctx) => {
    if (!existsSync(SYSTEMD_ENV_GENERATOR)) {
      console.log(`systemd's parser SKIPPED: ${SYSTEMD_ENV_GENERATOR} is not installed (package systemd)`);
      return ctx.skip();
    }
    const dir = mkdtempSync(join(tmpdir(), 'readlib-env-'));
    try {
      mkdirSync(join(dir, 'environment.d'));
      copyFileSync(EXAMPLE, join(dir, 'environment.d', '50-readlib.conf'));
      const generated = execFileSync(SYSTEMD_ENV_GENERATOR, [], {
        env: { XDG_CONFIG_HOME: dir, XDG_CONFIG_DIRS: join(dir, 'none'), XDG_DATA_DIRS: join(dir, 'none') },
        encoding: 'utf8',
      });
      // it prints NAME=value lines quoted for a shell: sh reads them back to the values systemd holds
      writeFileSync(join(dir, 'systemd.env'), generated);
      const systemd = throughSh(join(dir, 'systemd.env')).env;
      const sh = throughSh(EXAMPLE).env;
      for (const [name] of exampleLines()) expect(systemd[name], name).toBe(sh[name]);
      expect(systemd.CORS_ORIGIN).toBe('https://app.example.org, https://reader.example.org');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('one line per invalid variable', () => {
  it('an enum names the variable, what it got and the values it takes, once', () => {
    expect(() => load({ LOG_LEVEL: 'verbose' })).toThrow(
      new ConfigError(
        'invalid configuration: LOG_LEVEL is "verbose", expected one of: fatal, error, warn, info, debug, trace, silent',
      ),
    );
    expect(() => load({ NODE_ENV: 'prod', LOG_LEVEL: 'loud' })).toThrow(
      new ConfigError(
        'invalid configuration: NODE_ENV is "prod", expected one of: development, production, test; LOG_LEVEL is "loud", expected one of: fatal, error, warn, info, debug, trace, silent',
      ),
    );
    expect(() => load({ READER_PORT: '70000' })).toThrow(
      new ConfigError('invalid configuration: READER_PORT must be <= 65535'),
    );
  });

  it('a DATABASE_URL node-postgres cannot parse is refused naming the variable, never echoing the password', () => {
    for (const url of [
      'postgres://readlib:s3cret@db:99999/readlib',
      'postgres://readlib:s3/cret@db/readlib',
    ]) {
      let message = '';
      try {
        load({ DATABASE_URL: url });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, url).toMatch(/^invalid configuration: DATABASE_URL is not a valid postgres:\/\/ URL/);
      expect(message).not.toContain('s3');
    }
    // forms node-postgres takes are kept: a socket directory, no host at all, spaces
    for (const url of [
      'postgres://readlib:pw@/readlib?host=/run/postgresql',
      'postgres:///readlib',
      'postgres://readlib:p w@db/readlib',
    ])
      expect(load({ DATABASE_URL: url }).database, url).toEqual({ dialect: 'postgres', url });
  });

  it('a REDIS_URL whose database is not a number or whose port is out of range is refused naming the variable', () => {
    for (const url of [
      'redis://:s3cret@127.0.0.1:6379/abc',
      'redis://:s3cret@127.0.0.1:99999/7',
      'redis://:s3cret@h/1/2',
    ]) {
      let message = '';
      try {
        load({ REDIS_URL: url });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, url).toMatch(/^invalid configuration: REDIS_URL is not a valid redis:\/\/ URL/);
      expect(message).not.toContain('s3');
    }
    for (const url of [
      'redis://127.0.0.1:6379',
      'redis://127.0.0.1:6379/',
      'redis://:pw@cache.internal:6380/7',
      'rediss://user:pw@cache.internal/0',
    ])
      expect(load({ REDIS_URL: url }).redisUrl, url).toBe(url);
  });
});

describe('where the database is, without its password', () => {
  it('drops the password of the URL and of its query', () => {
    const pg = (url: string) => ({ dialect: 'postgres' as const, url });
    expect(describeDatabase(pg('postgres://readlib:s3cret@db.internal:5432/readlib'))).toBe(
      'PostgreSQL postgres://readlib@db.internal:5432/readlib',
    );
    expect(databaseLocation(pg('postgres://readlib@db/readlib?password=s3cret&sslmode=require'))).toBe(
      'postgres://readlib@db/readlib?sslmode=require',
    );
    expect(databaseLocation(pg('postgres://readlib:s3cret@/readlib?host=/run/postgresql'))).toBe(
      'postgres://readlib@/readlib?host=/run/postgresql',
    );
    expect(describeDatabase({ dialect: 'sqlite', file: '/var/lib/readlib/library.db' })).toBe(
      'SQLite /var/lib/readlib/library.db',
    );
  });

  it('says where it could not reach, with every address of an AggregateError', () => {
    const refused = new AggregateError(
      [new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')],
      '',
    );
    const err = unreachableDatabase({ dialect: 'postgres', url: 'postgres://u:pw@localhost/x' }, refused);
    expect(err.message).toBe(
      'cannot reach the database at postgres://u@localhost/x: connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432',
    );
    expect(err.cause).toBe(refused);
  });
});
