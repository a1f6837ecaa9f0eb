import { describe, expect, it } from 'vitest';
import { failureFields, logIdleConnectionLost } from '../src/index.js';
import { appLoggingTo } from './log-app.js';

/** A base app whose lines are gathered, with a route that throws `err`. */
async function throwing(err: Error) {
  const lines: Array<Record<string, unknown>> = [];
  const app = await appLoggingTo({ write: (line) => lines.push(JSON.parse(line)) });
  app.get('/fails', async () => {
    throw err;
  });
  await app.ready();
  lines.length = 0;
  const res = await app.inject({ url: '/fails', headers: { 'x-request-id': 'r-1' } });
  await app.close();
  return { status: res.statusCode, lines: lines.filter((l) => l.msg !== 'closing') };
}

// During a database outage a 503 logs the failure in one line, without the driver's stack.
describe('the log of a request the database could not take', () => {
  it('one warn line with the code and the message, no stack, besides the request line', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    const { status, lines } = await throwing(refused);
    expect(status).toBe(503);
    const warns = lines.filter((l) => l.level === 40);
    expect(warns).toEqual([
      expect.objectContaining({
        reqId: 'r-1',
        msg: 'database unavailable',
        code: 'ECONNREFUSED',
        error: 'connect ECONNREFUSED 10.0.0.5:5432',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/stack|at .*\.[jt]s:\d+/);
    expect(lines.filter((l) => l.msg === 'request completed')).toHaveLength(1);
  });

  it('an AggregateError of every address says each one', async () => {
    const both = new AggregateError(
      [
        Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' }),
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      ],
      '',
    );
    const { status, lines } = await throwing(both);
    expect(status).toBe(503);
    expect(lines.find((l) => l.level === 40)?.error).toBe(
      'connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432',
    );
  });

  it('an unexpected 500 keeps its stack', async () => {
    const { status, lines } = await throwing(new Error('a fault of ours'));
    expect(status).toBe(500);
    const logged = lines.find((l) => l.level === 50) as { err?: { stack?: string } } | undefined;
    expect(logged?.err?.stack).toMatch(/a fault of ours\n\s+at /);
  });

  it('a pooled connection lost while idle: its code and message, not the client pg-pool hangs on it', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = await appLoggingTo({ write: (line) => lines.push(JSON.parse(line)) });
    // what pg-pool emits: the socket's error, with the idle client (its settings and cancel key) on it
    const client = { processID: 4242, secretKey: 987654321, connectionParameters: { host: 'db.internal' } };
    const lost = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', client });
    lines.length = 0;
    logIdleConnectionLost(app.log, lost);
    logIdleConnectionLost(undefined, lost);
    await app.close();
    const warns = lines.filter((l) => l.level === 40);
    expect(warns).toEqual([
      expect.objectContaining({
        msg: 'idle database connection lost',
        code: 'ECONNRESET',
        error: 'read ECONNRESET',
      }),
    ]);
    expect(JSON.stringify(warns)).not.toMatch(/secretKey|987654321|processID|db\.internal|stack/);
  });

  it('work beside a response that fails: an outage in the 503 form, any other failure with its stack', () => {
    const cut = new Error('Connection terminated unexpectedly');
    expect(failureFields(cut)).toEqual({ error: 'Connection terminated unexpectedly' });
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    expect(failureFields(refused)).toEqual({
      code: 'ECONNREFUSED',
      error: 'connect ECONNREFUSED 10.0.0.5:5432',
    });
    const fault = new TypeError('a fault of ours');
    expect(failureFields(fault)).toEqual({ err: fault });
  });
});
