import { connect } from 'node:net';
import { testConfig } from '@readlib/config';
import { describe, expect, it } from 'vitest';
import { createBaseApp, type Family, success } from '../src/index.js';

async function appFor(family: Family, env: Record<string, string> = {}) {
  const app = await createBaseApp({
    config: testConfig({ RATE_LIMIT_PER_MINUTE: '1', ...env }),
    family,
    logger: false,
    openapi: { title: 't', version: '1', description: 'd' },
    ready: async () => true,
  });
  app.get('/fast', async () => success(family, null));
  return app;
}

/**
 * A request whose headers are half sent when the service starts closing, and finished after: its
 * connection is busy, so closing does not reap it, and it reaches routing while the service closes.
 */
async function requestFinishedWhileClosing(family: Family, path = '/fast'): Promise<string> {
  const app = await appFor(family);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const sock = connect((app.server.address() as { port: number }).port, '127.0.0.1');
  await new Promise((r) => sock.on('connect', r));
  let raw = '';
  sock.on('data', (d) => {
    raw += d.toString();
  });
  const ended = new Promise((r) => sock.on('close', r));
  sock.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n`);
  await new Promise((r) => setTimeout(r, 20));
  const closing = app.close();
  await new Promise((r) => setTimeout(r, 20));
  sock.write('\r\n');
  await ended;
  await closing;
  return raw;
}

describe('decisions.md §2: a request arriving while the service shuts down', () => {
  // the health routes too: /readyz declares its own 503 body, which must not reshape this one
  it.each([
    ['reader', '/fast', { error_code: -1 }],
    ['admin', '/fast', { code: -1 }],
    ['reader', '/healthz', { error_code: -1 }],
    ['admin', '/readyz', { code: -1 }],
  ] as const)(
    '%s %s: 503 in the envelope with Retry-After and connection: close',
    async (family, path, code) => {
      const raw = await requestFinishedWhileClosing(family, path);
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 503 /);
      expect(head.toLowerCase()).toContain('retry-after: 1');
      expect(head.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(body)).toEqual({ ...code, msg: 'the service is shutting down, retry shortly' });
    },
  );
});

describe('CORS: what a browser on another origin may read', () => {
  it('Retry-After is exposed with x-request-id, so a 429 or 503 tells a web client when to retry', async () => {
    const app = await appFor('reader');
    const headers = { origin: 'https://app.example' };
    await app.inject({ url: '/fast', headers });
    const limited = await app.inject({ url: '/fast', headers });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const exposed = String(limited.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['x-request-id', 'retry-after']));
    await app.close();
  });
});
