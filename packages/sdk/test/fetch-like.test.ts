import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminClient, createReaderClient, type FetchLike } from '../src/index.js';
import { failureMessage, isWellFormed, malformedQueryParameter, queryString } from '../src/transport.js';
import { type Services, startServices } from './helpers.js';
import { refusal } from './refusal.js';

/**
 * A fetch-like function as a mini-program adapter would write it over its own request API: no
 * Response or Headers classes, only the members FetchLike names. Here it sits on node:http.
 */
function miniProgramFetch(seen: string[]): FetchLike {
  return (url, init) =>
    new Promise((resolve, reject) => {
      seen.push(url);
      const req = request(url, { method: init.method, headers: init.headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: { get: (name) => (res.headers[name.toLowerCase()] as string | undefined) ?? null },
            json: async () => JSON.parse(text),
            text: async () => text,
          }),
        );
      });
      req.on('error', reject);
      if (typeof init.body === 'string') req.write(init.body);
      req.end();
    });
}

describe('a minimal FetchLike (mini-program runtimes)', () => {
  let s: Services;
  const seen: string[] = [];
  beforeAll(async () => {
    s = await startServices();
  });
  afterAll(async () => s.close());

  it('carries JSON bodies, queries, the shelf parameter and errors', async () => {
    const reader = createReaderClient({ baseUrl: s.readerUrl, fetch: miniProgramFetch(seen) });
    await reader.registerUser({ openId: 'mini 读者', nickName: '读者' });
    expect(await reader.getUserDay({ openId: 'mini 读者' })).toEqual({ day: 1 });
    const err = await reader.saveShelf({ openId: 'mini 读者', fileName: 'no-such-book' }).catch((e) => e);
    expect([err.status, err.code, err.kind]).toEqual([404, 1, 'not_found']);
    expect(err.requestId).toMatch(/.+/);
    const shelf = JSON.stringify({ openId: 'mini 读者', fileName: 'no-such-book' });
    expect(seen.at(-1)).toBe(`${s.readerUrl}/book/shelf/save?shelf=${encodeURIComponent(shelf)}`);
  });
});

describe('query strings', () => {
  it('leave out undefined values and encode the rest with encodeURIComponent', () => {
    expect(queryString({ keyword: '红 楼', openId: undefined, page: 2 })).toBe(
      '?keyword=%E7%BA%A2%20%E6%A5%BC&page=2',
    );
    expect(queryString({ sort: '+title' })).toBe('?sort=%2Btitle');
    expect(queryString({})).toBe('');
    expect(queryString(undefined)).toBe('');
  });
});

describe('query values that are not well-formed Unicode (a lone surrogate)', () => {
  it('are found before encodeURIComponent would throw', () => {
    for (const ok of ['', 'abc', '红楼', '\uD83D\uDE00', 'a\uD83D\uDE00b\uD83D\uDE00'])
      expect(isWellFormed(ok)).toBe(true);
    for (const bad of ['\uD83D', 'a\uD83Db', '\uDE00', 'x\uDE00\uD83D', '\uD83D\uD83D']) {
      expect(isWellFormed(bad)).toBe(false);
    }
    expect(malformedQueryParameter({ a: 'x', keyword: 'cut \uD83D', later: '\uDE00' })).toBe('keyword');
    expect(malformedQueryParameter({ 'k\uD800': 'x' })).toBe('"k\\ud800"');
    expect(malformedQueryParameter({ skipped: undefined, n: 3 })).toBeUndefined();
  });

  it("reject with kind invalid, status 0, the family's invalid code, and send nothing", async () => {
    const seen: string[] = [];
    const fetch: FetchLike = async (url) => {
      seen.push(url);
      throw new Error('not reached');
    };
    const reader = createReaderClient({ baseUrl: 'http://adapter.test', fetch });
    const err = await refusal(reader.searchBooks({ keyword: '\u7EA2\uD83D' }));
    expect([err.status, err.code, err.kind, err.msg]).toEqual([
      0,
      2,
      'invalid',
      'query parameter keyword is not valid Unicode (a lone surrogate)',
    ]);
    const admin = createAdminClient({ baseUrl: 'http://adapter.test', fetch });
    const adminErr = await refusal(admin.getBook({ fileName: 'x\uDFFF' }));
    expect([adminErr.status, adminErr.code, adminErr.kind]).toEqual([0, -1, 'invalid']);
    expect(seen).toEqual([]);
  });
});

describe('a failed exchange names its root cause in msg', () => {
  const systemError = (message: string, code: string) => Object.assign(new Error(message), { code });

  it("follows the cause chain of Node's fetch: one address, several addresses, a code without message", () => {
    const refused = systemError('connect ECONNREFUSED 127.0.0.1:3310', 'ECONNREFUSED');
    expect(failureMessage(new TypeError('fetch failed', { cause: refused }))).toBe(
      'fetch failed: connect ECONNREFUSED 127.0.0.1:3310',
    );
    const both = Object.assign(
      new AggregateError([systemError('connect ECONNREFUSED ::1:3310', 'ECONNREFUSED'), refused], ''),
      { code: 'ECONNREFUSED' },
    );
    expect(failureMessage(new TypeError('fetch failed', { cause: both }))).toBe(
      'fetch failed: connect ECONNREFUSED ::1:3310; connect ECONNREFUSED 127.0.0.1:3310',
    );
    const bare = systemError('', 'ECONNRESET');
    expect(failureMessage(new TypeError('fetch failed', { cause: new Error('x', { cause: bare }) }))).toBe(
      'fetch failed: ECONNRESET',
    );
    // nothing to add: a message of its own, or a cause it already says
    expect(failureMessage(new TypeError('request:fail timeout'))).toBe('request:fail timeout');
    expect(failureMessage(new Error('socket hang up: ECONNRESET', { cause: bare }))).toBe(
      'socket hang up: ECONNRESET',
    );
    expect(failureMessage('offline')).toBe('offline');
  });

  it('a fetch of its own rejecting that way: kind network, msg with the cause, the error kept as cause', async () => {
    const failed = new TypeError('fetch failed', {
      cause: systemError('getaddrinfo ENOTFOUND reader.invalid', 'ENOTFOUND'),
    });
    const fetch: FetchLike = async () => {
      throw failed;
    };
    const err = await refusal(createReaderClient({ baseUrl: 'http://reader.invalid', fetch }).getHotSearch());
    expect([err.kind, err.msg, err.cause]).toEqual([
      'network',
      'fetch failed: getaddrinfo ENOTFOUND reader.invalid',
      failed,
    ]);
  });
});
