import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../src/index.js';
import { success } from '../src/index.js';
import { appLoggingTo } from './log-app.js';

type Line = Record<string, unknown>;

const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

/** The line of a request whose connection closed, as logClosedRequests writes it. */
const closedLine = (fields: Line) =>
  expect.objectContaining({ level: 30, msg: 'connection closed before the response ended', ...fields });

/** A listening reader app whose log lines are collected; the routes are added by `routes`. */
async function listening(routes: (app: App) => void): Promise<{ app: App; port: number; lines: Line[] }> {
  const lines: Line[] = [];
  const app = await appLoggingTo({ write: (line) => lines.push(JSON.parse(line)) });
  routes(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  lines.length = 0;
  return { app, port: (app.server.address() as { port: number }).port, lines };
}

/** Sends the head of a request and `sent` bytes of a longer body, then hangs up. */
async function hangUpMidBody(port: number, path: string, reqId: string): Promise<void> {
  const sock = connect(port, '127.0.0.1');
  await new Promise((resolve) => sock.once('connect', resolve));
  sock.write(
    `POST ${path} HTTP/1.1\r\nHost: x\r\nx-request-id: ${reqId}\r\ncontent-type: application/json\r\n` +
      'content-length: 10000\r\n\r\n{"nickname":"',
  );
  await settle(50);
  sock.destroy();
}

describe('a request whose connection closes before its response ends writes one line naming it', () => {
  let app: App | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('hung up while sending its body: method, url and request id, not a database failure', async () => {
    const started = await listening((a) => a.post('/user/register', async () => success('reader', null)));
    app = started.app;
    await hangUpMidBody(started.port, '/user/register?openId=o-77', 'cut-1');
    await settle();

    expect(started.lines).toEqual([
      closedLine({
        reqId: 'cut-1',
        method: 'POST',
        url: '/user/register?openId=[redacted]',
        closed: 'while receiving the request',
      }),
    ]);
    // nothing was answered, so no status is claimed
    expect(started.lines[0]).not.toHaveProperty('status');
    expect(started.lines[0]!.ms).toEqual(expect.any(Number));
  });

  it('hung up while its handler ran: the one line says the response was never sent', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started = await listening((a) =>
      a.get('/slow', async () => {
        await held;
        return success('reader', null);
      }),
    );
    app = started.app;
    const req = httpRequest({
      host: '127.0.0.1',
      port: started.port,
      path: '/slow',
      headers: { 'x-request-id': 'gone-1' },
    });
    req.on('error', () => {});
    req.end();
    await settle();
    req.destroy();
    await settle();
    release();
    await settle();

    expect(started.lines).toEqual([
      closedLine({ reqId: 'gone-1', method: 'GET', url: '/slow', closed: 'before the response' }),
    ]);
  });

  it('hung up during a download: the status sent and the request, in place of Fastify "stream closed prematurely"', async () => {
    const started = await listening((a) =>
      a.get('/res/epub/big.epub', async (_req, reply) => {
        const chunk = Buffer.alloc(64 * 1024, 1);
        let left = 2000;
        const body = new Readable({
          read() {
            this.push(left-- > 0 ? chunk : null);
          },
        });
        return reply.type('application/epub+zip').send(body);
      }),
    );
    app = started.app;
    await new Promise<void>((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: started.port,
          path: '/res/epub/big.epub',
          headers: { 'x-request-id': 'dl-1' },
        },
        (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', () => {});
      req.end();
    });
    await settle();

    expect(started.lines).toEqual([
      closedLine({
        reqId: 'dl-1',
        method: 'GET',
        url: '/res/epub/big.epub',
        status: 200,
        closed: 'while sending the response',
      }),
    ]);
  });

  it('a response that fails after its headers warns naming the request, besides its one line', async () => {
    const started = await listening((a) =>
      a.get('/broken', async (_req, reply) => {
        let sent = false;
        const body = new Readable({
          read() {
            // the first chunk goes out with the headers; the stream fails after
            if (sent) setTimeout(() => this.destroy(new Error('disk read failed')), 50);
            else this.push(Buffer.alloc(1024, 1));
            sent = true;
          },
        });
        return reply.type('application/octet-stream').send(body);
      }),
    );
    app = started.app;
    const res = await fetch(`http://127.0.0.1:${started.port}/broken`, {
      headers: { 'x-request-id': 'b-1' },
    });
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    await settle();

    expect(started.lines).toEqual([
      expect.objectContaining({
        level: 40,
        reqId: 'b-1',
        method: 'GET',
        url: '/broken',
        err: expect.objectContaining({ message: 'disk read failed' }),
        msg: 'response failed after its headers were sent',
      }),
      closedLine({ reqId: 'b-1', status: 200, closed: 'while sending the response' }),
    ]);
  });

  it('a request answered whole over a real connection still writes only its completed line', async () => {
    const started = await listening((a) => a.get('/hello', async () => success('reader', 'hi')));
    app = started.app;
    for (let i = 0; i < 3; i++)
      expect((await fetch(`http://127.0.0.1:${started.port}/hello`)).status).toBe(200);
    await settle();
    expect(started.lines.map((l) => l.msg)).toEqual(Array(3).fill('request completed'));
  });
});
