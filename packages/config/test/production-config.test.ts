import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/** deploy/readlib.env.example as systemd's EnvironmentFile reads these plain lines. */
function example(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(EXAMPLE, 'utf8').split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) env[m[1]!] = m[2]!;
  }
  return env;
}

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
    const script = 'set -a; . "$1"; set +a; exec env';
    const out = execFileSync('sh', ['-c', script, 'sh', EXAMPLE], { env: {}, encoding: 'utf8' });
    const seen = Object.fromEntries(
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    for (const [name, value] of Object.entries(example())) expect(seen[name], name).toBe(value);
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
