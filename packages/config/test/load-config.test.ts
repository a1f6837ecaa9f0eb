import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/index.js';

const load = (env: Record<string, string>) => loadConfig(env, { dotenv: false });

describe('decisions.md §1: configuration from validated environment variables', () => {
  it('has documented defaults: SQLite file, ports 3000/3001, store, public URL', () => {
    const c = load({});
    expect(c.database).toEqual({ dialect: 'sqlite', file: join(process.cwd(), 'data/library.db') });
    expect(c.readerPort).toBe(3000);
    expect(c.adminPort).toBe(3001);
    expect(c.storageDir).toBe(join(process.cwd(), 'data/storage'));
    expect(c.publicBaseUrl).toBe('http://localhost:3000');
    expect(c.jwt.expiresIn).toBe('1h');
    expect(c.env).toBe('development');
  });

  it('links files on the reader port it was given when PUBLIC_BASE_URL is unset', () => {
    expect(load({ READER_PORT: '3910' }).publicBaseUrl).toBe('http://localhost:3910');
    expect(load({ READER_PORT: '3910', PUBLIC_BASE_URL: 'https://cdn.example.org' }).publicBaseUrl).toBe(
      'https://cdn.example.org',
    );
  });

  it('selects PostgreSQL for a postgres:// DATABASE_URL', () => {
    expect(load({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({
      dialect: 'postgres',
      url: 'postgres://u@h:5432/db',
    });
    expect(load({ DATABASE_URL: 'postgresql://u@h/db' }).database.dialect).toBe('postgres');
  });

  it('coerces numbers and booleans and strips a trailing slash from PUBLIC_BASE_URL', () => {
    const c = load({
      READER_PORT: '8080',
      DEMO_CATALOGUE: 'false',
      PUBLIC_BASE_URL: 'https://books.example.org/',
    });
    expect(c.readerPort).toBe(8080);
    expect(c.demoCatalogue).toBe(false);
    expect(c.publicBaseUrl).toBe('https://books.example.org');
  });

  it('refuses invalid values with a clear message', () => {
    expect(() => load({ READER_PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => load({ READER_PORT: '70000' })).toThrow(/READER_PORT/);
    expect(() => load({ PUBLIC_BASE_URL: 'ftp://x' })).toThrow(/PUBLIC_BASE_URL/);
    expect(() => load({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
    expect(() => load({ NODE_ENV: 'staging' })).toThrow(ConfigError);
    for (const life of ['0', '10x', '-5', '1.5h'])
      expect(() => load({ JWT_EXPIRES_IN: life })).toThrow(/JWT_EXPIRES_IN/);
    expect(() => load({ WECHAT_APP_SECRETS: 'no-equals-sign' })).toThrow(/WECHAT_APP_SECRETS/);
  });

  // each of these is refused: otherwise covers read `http:/res/...` or a file `mysql:/x/y` appears
  it('refuses a public URL without a host, a database URL of another engine and an origin that is not one', () => {
    for (const url of ['http://', 'http://exa mple.com', 'https://:99999', 'https://host:99999'])
      expect(() => load({ PUBLIC_BASE_URL: url }), url).toThrow(/PUBLIC_BASE_URL/);
    expect(load({ PUBLIC_BASE_URL: 'https://books.example:8443/base/' }).publicBaseUrl).toBe(
      'https://books.example:8443/base',
    );
    for (const url of ['mysql://x/y', 'postgress://u@h/db', 'sqlite://x.db'])
      expect(() => load({ DATABASE_URL: url }), url).toThrow(/DATABASE_URL/);
    expect(load({ DATABASE_URL: './some dir/lib.db' }).database).toMatchObject({ dialect: 'sqlite' });
    for (const origin of ['not an origin', 'https://app.example/path', 'app.example'])
      expect(() => load({ CORS_ORIGIN: origin }), origin).toThrow(/CORS_ORIGIN/);
    expect(load({ CORS_ORIGIN: 'https://a.example, http://localhost:5173' }).corsOrigin).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
  });

  it('HOST: an address or a host name, refused at once naming HOST when it can be neither', () => {
    for (const host of [
      '0.0.0.0',
      '127.0.0.1',
      '::',
      '::1',
      'fe80::1',
      'localhost',
      'reader-1.internal',
      'db_1',
      'host.',
    ])
      expect(load({ HOST: host }).host, host).toBe(host);
    const refusals = {
      '999.1.1.1': 'HOST "999.1.1.1" is not an IPv4 address (four numbers from 0 to 255)',
      '10.0.0': 'HOST "10.0.0" is not an IPv4 address (four numbers from 0 to 255)',
      '[::1]': 'HOST "[::1]" is written in brackets: give the IPv6 address without them',
      'not a host!': 'HOST "not a host!" is neither an IP address nor a host name',
      'http://0.0.0.0': 'HOST "http://0.0.0.0" is neither an IP address nor a host name',
      'a..b': 'HOST "a..b" is neither an IP address nor a host name',
      [`${'x'.repeat(64)}.example`]: `HOST "${'x'.repeat(64)}.example" is neither an IP address nor a host name`,
    };
    for (const [host, message] of Object.entries(refusals))
      expect(() => load({ HOST: host }), host).toThrow(`invalid configuration: ${message}: set HOST to`);
    expect(() => load({ HOST: '999.1.1.1' })).toThrow(
      'invalid configuration: HOST "999.1.1.1" is not an IPv4 address (four numbers from 0 to 255): set HOST to one of this machine\'s addresses (127.0.0.1, or 0.0.0.0 for every interface)',
    );
  });

  it('refuses one port for both services, naming it; port 0 (any free port) may be given to both', () => {
    expect(() => load({ READER_PORT: '3001' })).toThrow(
      'invalid configuration: READER_PORT and ADMIN_PORT are both 3001: the two services listen on two ports, set one of them to another',
    );
    expect(() => load({ READER_PORT: '4000', ADMIN_PORT: '4000' })).toThrow('are both 4000');
    const anyPorts = load({ READER_PORT: '0', ADMIN_PORT: '0' });
    expect([anyPorts.readerPort, anyPorts.adminPort]).toEqual([0, 0]);
  });

  it('CORS_ORIGIN: an origin written with a trailing slash is the origin browsers send', () => {
    // the Origin header has no slash, and the CORS plugin compares strings: as given, none would match
    expect(load({ CORS_ORIGIN: 'http://127.0.0.1:5173/,https://a.example/' }).corsOrigin).toEqual([
      'http://127.0.0.1:5173',
      'https://a.example',
    ]);
  });

  it('REPORT_UTC_OFFSET: where the report days of decisions.md §5 begin, UTC by default', () => {
    const hour = 3_600_000;
    expect(load({}).reportUtcOffsetMs).toBe(0);
    expect(load({ REPORT_UTC_OFFSET: '+08:00' }).reportUtcOffsetMs).toBe(8 * hour);
    expect(load({ REPORT_UTC_OFFSET: '-03:30' }).reportUtcOffsetMs).toBe(-3.5 * hour);
    expect(load({ REPORT_UTC_OFFSET: '+05:45' }).reportUtcOffsetMs).toBe(5.75 * hour);
    expect(load({ REPORT_UTC_OFFSET: '+14:00' }).reportUtcOffsetMs).toBe(14 * hour);
    expect(load({ REPORT_UTC_OFFSET: '-12:00' }).reportUtcOffsetMs).toBe(-12 * hour);
    expect(load({ REPORT_UTC_OFFSET: '-00:00' }).reportUtcOffsetMs).toBe(0);
    for (const bad of ['8', '+8:00', '08:00', '+15:00', '+14:15', '-12:30', '+08:20', '+07:60', 'UTC'])
      expect(() => load({ REPORT_UTC_OFFSET: bad }), bad).toThrow(/REPORT_UTC_OFFSET/);
    expect(() => load({ REPORT_UTC_OFFSET: '+15:00' })).toThrow(ConfigError);
  });

  it('generates a JWT secret in development and refuses to start in production without one (decisions.md §4)', () => {
    const dev = load({});
    expect(dev.jwt.generatedSecret).toBe(true);
    expect(dev.jwt.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(load({}).jwt.secret).not.toBe(dev.jwt.secret);
    expect(() => load({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
    const prod = load({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) });
    expect(prod.jwt).toMatchObject({ secret: 'x'.repeat(32), generatedSecret: false });
    expect(() =>
      load({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), ADMIN_USERNAME: 'root' }),
    ).toThrow(/ADMIN_PASSWORD/);
  });

  it('says every fault of the values at once, after the schema has passed them', () => {
    expect(() =>
      load({
        NODE_ENV: 'production',
        ADMIN_USERNAME: 'root',
        PUBLIC_BASE_URL: 'http://',
        CORS_ORIGIN: 'https://console.example.org/path',
        REPORT_UTC_OFFSET: '+08:20',
        WECHAT_APP_SECRETS: 'wx1',
      }),
    ).toThrow(
      new ConfigError(
        [
          'invalid configuration: JWT_SECRET (at least 32 characters) is required when NODE_ENV=production',
          'ADMIN_PASSWORD is required with ADMIN_USERNAME when NODE_ENV=production',
          'PUBLIC_BASE_URL: "http://" is not an http(s) URL with a host',
          'CORS_ORIGIN: "https://console.example.org/path" is not an origin (scheme://host[:port])',
          'WECHAT_APP_SECRETS: "wx1" is not key=value',
          'REPORT_UTC_OFFSET: "+08:20" is not an offset from -12:00 to +14:00 in quarter hours (e.g. +08:00, -03:30, +05:45)',
        ].join('; '),
      ),
    );
  });

  it('refuses ADMIN_PASSWORD without ADMIN_USERNAME, in development too: it would be ignored', () => {
    for (const NODE_ENV of ['development', 'production'])
      expect(() =>
        load({ NODE_ENV, JWT_SECRET: 'x'.repeat(32), ADMIN_PASSWORD: 'a password of its own' }),
      ).toThrow('ADMIN_USERNAME is required with ADMIN_PASSWORD: the password is for that operator');
    expect(load({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'a password of its own' }).firstOperator).toEqual({
      username: 'root',
      password: 'a password of its own',
    });
  });

  it('parses per-appId platform settings', () => {
    const c = load({ WECHAT_APP_SECRETS: 'wx1=s1, wx2=s2', ALIPAY_APP_KEYS: '2021=/k/app.pem:/k/ali.pem' });
    expect(c.platforms.wechat.secrets).toEqual({ wx1: 's1', wx2: 's2' });
    expect(c.platforms.alipay.keys['2021']).toEqual({
      privateKeyFile: '/k/app.pem',
      publicKeyFile: '/k/ali.pem',
    });
  });

  it('reads a .env file in the working directory when asked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'readlib-env-'));
    writeFileSync(join(dir, '.env'), 'READER_PORT=4100\nBANNER_TITLE="Hello"\n');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const c = loadConfig({}, { dotenv: true });
      expect(c.readerPort).toBe(4100);
      expect(c.banner.title).toBe('Hello');
    } finally {
      process.chdir(cwd);
    }
  });
});
