import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '@readlib/contracts';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { success } from '../src/index.js';
import { completedLine, GATHER_BYTES, gatheringDestination, pinoParts } from '../src/request-log.js';
import { appLoggingTo } from './log-app.js';

describe('request log: one line per request, written asynchronously, flushed on close', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-request-log-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one line per request: method, url with secrets redacted, status, ms and request id', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = await appLoggingTo({ write: (line) => lines.push(JSON.parse(line)) });
    app.get('/book/home/v2', async () => success('reader', 'hi'));
    app.get('/refused', async () => {
      throw new AppError('not_found', 'no such book');
    });
    await app.ready();
    lines.length = 0;

    const res = await app.inject({
      url: '/book/home/v2?openId=o-42&token=t0k&code=c0de&page=2',
      headers: { 'x-request-id': 'r-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      reqId: 'r-1',
      method: 'GET',
      url: '/book/home/v2?openId=[redacted]&token=[redacted]&code=[redacted]&page=2',
      status: 200,
      msg: 'request completed',
    });
    expect(lines[0]!.ms).toEqual(expect.any(Number));
    // pino's own order: level, time, its bindings (pid, hostname, reqId), the fields, msg
    expect(Object.keys(lines[0]!)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'method',
      'url',
      'status',
      'ms',
      'msg',
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/o-42|t0k|c0de/);

    // a refusal is said on the same one line
    await app.inject({ url: '/refused', headers: { 'x-request-id': 'r-2' } });
    expect(lines.slice(1)).toEqual([
      expect.objectContaining({ reqId: 'r-2', status: 404, refused: 'not_found', reason: 'no such book' }),
    ]);
    await app.close();
  });

  it('writes nothing per request above info (LOG_LEVEL=warn)', async () => {
    const lines: string[] = [];
    const app = await appLoggingTo({ write: (line) => lines.push(line) }, 'warn');
    app.get('/hello', async () => success('reader', 'hi'));
    await app.inject({ url: '/hello' });
    expect(lines).toEqual([]);
    await app.close();
  });

  it('buffers lines asynchronously and writes them all to the file when the service closes', async () => {
    const file = join(dir, 'service.log');
    // gathered until 16,000 bytes (50 lines take less): without the flush on close, none would be in the file
    const destination = pino.destination({ dest: file, sync: false, minLength: 16_000 });
    await new Promise((resolve) => destination.once('ready', resolve));
    const app = await appLoggingTo(destination);
    app.get('/hello', async () => success('reader', 'hi'));
    for (let i = 0; i < 50; i++) await app.inject({ url: `/hello?i=${i}` });
    expect(readFileSync(file, 'utf8')).toBe('');

    await app.close();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const requests = lines.filter((l) => l.msg === 'request completed');
    expect(requests.map((l) => l.url)).toEqual(Array.from({ length: 50 }, (_, i) => `/hello?i=${i}`));
    destination.end();
  });

  it("makes exactly the line pino would write for the same fields, whatever the URL's characters", () => {
    const written: string[] = [];
    const logger = pino(
      { timestamp: () => ',"time":1700000000000' },
      { write: (l: string) => written.push(l) },
    );
    const child = logger.child({ reqId: 'r-"1\\' });
    const urls = [
      '/book/detail?fileName=b_1',
      '/a"b\\c',
      '/tab\tnew\nline\u0001',
      '/书/ü?q=é&x=😀',
      `/${'long-'.repeat(20)}`,
    ];
    for (const [i, url] of urls.entries()) {
      const fields = { method: i % 2 ? 'HEAD' : 'GET', url, status: 200 + i, ms: i * 0.7 };
      child.info(fields, 'request completed');
      expect(completedLine(pinoParts(child), fields)).toBe(written.at(-1));
    }
  });

  it('the gathering destination writes lines of any characters whole and in order, once gathered or flushed', async () => {
    const file = join(dir, 'gathered.log');
    const destination = gatheringDestination(file);
    const lines = Array.from(
      { length: 40 },
      (_, i) => `${JSON.stringify({ i, msg: `ü 书 😀 ${'x'.repeat(i)}` })}\n`,
    );
    for (const line of lines) destination.write(line);
    // 40 short lines are less than a batch: nothing is written until it is flushed
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readFileSync(file, 'utf8')).toBe('');
    destination.flushSync?.();
    expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
  });

  it('the gathering destination writes on its own once GATHER_BYTES of lines are gathered, not before', async () => {
    const file = join(dir, 'batched.log');
    // the destination opens the file in its own time (appending): created here, it is there to read
    writeFileSync(file, '');
    const destination = gatheringDestination(file);
    const line = `${JSON.stringify({ msg: 'request completed', url: `/book/detail?fileName=${'b'.repeat(150)}` })}\n`;
    const perBatch = Math.ceil(GATHER_BYTES / Buffer.byteLength(line));
    for (let i = 0; i < perBatch - 1; i++) destination.write(line);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // one line short of a batch: still gathered
    expect(readFileSync(file, 'utf8')).toBe('');
    destination.write(line);
    // the batch is written whole, without a flush (asynchronously: waited for, up to 10 s on a busy machine)
    const whole = line.repeat(perBatch);
    for (let waited = 0; waited < 10_000 && readFileSync(file, 'utf8') !== whole; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(readFileSync(file, 'utf8')).toBe(whole);
    destination.flushSync?.();
  });
});
