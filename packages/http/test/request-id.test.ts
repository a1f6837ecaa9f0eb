import { describe, expect, it } from 'vitest';
import { success } from '../src/index.js';
import { appLoggingTo } from './log-app.js';

describe('structured logs carry the request id (issue: scale-out §3)', () => {
  it('keeps a well-formed x-request-id, echoes it, and every log line of the request carries it', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = await appLoggingTo({ write: (line) => lines.push(JSON.parse(line)) });
    app.get('/hello', async (req) => {
      req.log.info({ step: 'inside' }, 'handler ran');
      return success('reader', 'hi');
    });
    const res = await app.inject({ url: '/hello', headers: { 'x-request-id': 'proxy-7f3a.42' } });
    expect(res.headers['x-request-id']).toBe('proxy-7f3a.42');
    const mine = lines.filter((l) => l.reqId === 'proxy-7f3a.42');
    expect(mine.map((l) => l.msg)).toEqual(['handler ran', 'request completed']);
    expect(mine[1]).toMatchObject({ level: 30, method: 'GET', url: '/hello', status: 200 });

    // a malformed id (log injection, oversize) is replaced by a generated one
    const bad = await app.inject({ url: '/hello', headers: { 'x-request-id': 'a b\nc' } });
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.some((l) => l.reqId === bad.headers['x-request-id'])).toBe(true);
    await app.close();
  });
});
