import { testConfig } from '@readlib/config';
import { createDb, poolStats } from '@readlib/data';
import { testDialects } from '@readlib/data/testing';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { createBaseApp, success } from '../src/index.js';
import { appLoggingTo } from './log-app.js';

const dialects = await testDialects();

async function appWith(
  env: Record<string, string> = {},
  stats?: Parameters<typeof createBaseApp>[0]['poolStats'],
) {
  const app = await createBaseApp({
    config: testConfig({ RATE_LIMIT_PER_MINUTE: '2', ...env }),
    family: 'reader',
    logger: false,
    openapi: { title: 't', version: '1', description: 'd' },
    ready: async () => true,
    poolStats: stats,
  });
  app.get('/book/:fileName', { schema: { params: Type.Object({ fileName: Type.String() }) } }, async () =>
    success('reader', 1),
  );
  return app;
}

describe('GET /metrics (issue: scale-out §3)', () => {
  it('counts requests and latencies by route pattern, method and status, beside process metrics', async () => {
    const app = await appWith({ RATE_LIMIT_PER_MINUTE: '100' });
    await app.inject('/book/a');
    await app.inject('/book/b');
    await app.inject('/nowhere/123');
    const res = await app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toMatch(
      /^http_requests_total\{method="GET",route="\/book\/:fileName",status_code="200"\} 2$/m,
    );
    expect(res.body).toMatch(
      /^http_requests_total\{method="GET",route="<unmatched>",status_code="404"\} 1$/m,
    );
    expect(res.body).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/book\/:fileName",status_code="200"\} 2$/m,
    );
    expect(res.body).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",/m);
    expect(res.body).toMatch(/^process_cpu_user_seconds_total /m);
    expect(res.body).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(res.body).not.toMatch(/\/book\/a/);
    await app.close();
  });

  it('is outside the envelopes, the rate limit and the OpenAPI document', async () => {
    const app = await appWith({ RATE_LIMIT_PER_MINUTE: '3' });
    const doc = (await app.inject('/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/healthz');
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
    for (let i = 0; i < 5; i++) expect((await app.inject('/metrics')).statusCode).toBe(200);
    expect((await app.inject('/book/a')).statusCode).toBe(200);
    expect((await app.inject('/book/a')).statusCode).toBe(200);
    expect((await app.inject('/book/a')).statusCode).toBe(429);
    expect((await app.inject('/metrics')).body).not.toContain('error_code');
    await app.close();
  });

  it('asks for METRICS_TOKEN as a Bearer token when one is configured', async () => {
    const app = await appWith({ METRICS_TOKEN: 'scrape-me-please' });
    const anonymous = await app.inject('/metrics');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expect(anonymous.body).toMatch(/METRICS_TOKEN/);
    const wrong = await app.inject({
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-me-pleasf' },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await app.inject({
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-me-please' },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toMatch(/^http_requests_total\{/m);
    // the scheme's name is case-insensitive, the token is not
    for (const [authorization, status] of [
      ['bearer scrape-me-please', 200],
      ['BEARER  scrape-me-please', 200],
      ['bearer SCRAPE-ME-PLEASE', 401],
      ['Basic scrape-me-please', 401],
      ['Bearerscrape-me-please', 401],
    ] as const) {
      const res = await app.inject({ url: '/metrics', headers: { authorization } });
      expect([authorization, res.statusCode]).toEqual([authorization, status]);
    }
    await app.close();
  });

  it('a refused scrape writes a warn line saying why; an accepted one writes none', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = await appLoggingTo({ write: (line) => lines.push(JSON.parse(line)) }, 'info', {
      METRICS_TOKEN: 'scrape-me-please',
    });
    await app.ready();
    lines.length = 0;
    await app.inject('/metrics');
    await app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope' } });
    await app.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-me-please' } });
    expect(lines.map((l) => [l.level, l.msg, l.reason, l.url])).toEqual([
      [40, 'metrics scrape refused', 'no token', '/metrics'],
      [40, 'metrics scrape refused', 'wrong token', '/metrics'],
    ]);
    expect(JSON.stringify(lines)).not.toContain('nope');
    await app.close();
  });

  it.each(dialects)('reports the database pool on $name', async (dialect) => {
    const h = await dialect.create();
    const other = createDb(h.config);
    const app = await appWith({}, () => poolStats(other.db));
    await other.db.selectFrom('books').select('id').execute();
    const body = (await app.inject('/metrics')).body;
    // SQLite: a file is opened twice, reads on one connection, writes on the other
    const total = dialect.name === 'sqlite' ? 2 : 1;
    expect(body).toMatch(
      new RegExp(`^readlib_db_pool_connections\\{dialect="${dialect.name}",state="total"\\} ${total}$`, 'm'),
    );
    if (dialect.name === 'postgres') {
      expect(body).toMatch(/^readlib_db_pool_connections\{dialect="postgres",state="idle"\} 1$/m);
      expect(body).toMatch(/^readlib_db_pool_connections\{dialect="postgres",state="waiting"\} 0$/m);
    }
    await app.close();
    await other.destroy();
    await h.destroy();
  });
});
