import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnvSchema, loadConfig } from '../src/index.js';

const load = (env: Record<string, string>) => loadConfig(env, { dotenv: false });
const repo = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('operations settings (issue: scale-out §1, §3)', () => {
  it('defaults: no proxy trusted, metrics open, readlib: key prefix, 10 connections', () => {
    const c = load({});
    expect(c.trustProxy).toBe(false);
    expect(c.metricsToken).toBeUndefined();
    expect(c.redisKeyPrefix).toBe('readlib:');
    expect(c.databasePoolSize).toBe(10);
    expect(c.redisUrl).toBeUndefined();
  });

  it('TRUST_PROXY takes true, a hop count, or a list of addresses', () => {
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(load({ TRUST_PROXY: 'loopback,::1,fd00::/8,192.168.0.0/255.255.0.0' }).trustProxy).toEqual([
      'loopback',
      '::1',
      'fd00::/8',
      '192.168.0.0/255.255.0.0',
    ]);
  });

  it('TRUST_PROXY that is no address is refused naming the variable and each bad entry', () => {
    expect(() => load({ TRUST_PROXY: 'yes' })).toThrow(
      /^invalid configuration: TRUST_PROXY: "yes" is not true, false, a hop count or a proxy address/,
    );
    for (const value of ['10.0.0.0/33', '10.0.0.0/0', '::1/129', '10.0.0.0/255.0.255.0', 'nginx.internal'])
      expect(() => load({ TRUST_PROXY: `127.0.0.1,${value}` })).toThrow(`TRUST_PROXY: "${value}" is not`);
    expect(() => load({ TRUST_PROXY: 'on, 10.0.0.1, 1.2.3' })).toThrow('TRUST_PROXY: "on", "1.2.3" are not');
  });

  it('METRICS_TOKEN and DATABASE_POOL_SIZE are read; a pool of 0 is refused', () => {
    expect(load({ METRICS_TOKEN: 'scrape' }).metricsToken).toBe('scrape');
    expect(load({ DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    expect(() => load({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('PostgreSQL prepared statements are on unless DATABASE_PREPARED_STATEMENTS is false', () => {
    expect(load({}).databasePreparedStatements).toBe(true);
    expect(load({ DATABASE_PREPARED_STATEMENTS: 'false' }).databasePreparedStatements).toBe(false);
    expect(() => load({ DATABASE_PREPARED_STATEMENTS: 'sometimes' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
  });

  it('database waits are bounded by default (5 s to connect, 30 s a statement); 0 turns the statement limit off', () => {
    expect(load({}).databaseTimeouts).toEqual({ connectMs: 5000, statementMs: 30_000 });
    expect(
      load({ DATABASE_CONNECT_TIMEOUT_MS: '800', DATABASE_STATEMENT_TIMEOUT_MS: '0' }).databaseTimeouts,
    ).toEqual({
      connectMs: 800,
      statementMs: 0,
    });
    expect(() => load({ DATABASE_CONNECT_TIMEOUT_MS: '0' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
    expect(() => load({ DATABASE_STATEMENT_TIMEOUT_MS: '-1' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
  });

  it('deploy/readlib.env.example sets only variables the schema knows, and README points to docs/deployment.md', () => {
    const names = repo('deploy/readlib.env.example')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.slice(0, line.indexOf('=')));
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !(n in EnvSchema.properties))).toEqual([]);
    expect(repo('README.md')).toContain('docs/deployment.md');
    const deployment = repo('docs/deployment.md');
    for (const needle of [
      'pg_dump',
      'pg_restore',
      'pnpm cli backup',
      'pnpm cli restore',
      '/metrics',
      'REDIS_URL',
    ]) {
      expect(deployment).toContain(needle);
    }
  });
});
