import { rmSync } from 'node:fs';
import { testConfig } from '@readlib/config';
import { createDb } from '@readlib/data';
import { refusingPostgresUrl } from '@readlib/data/testing';
import { makeEpub } from '@readlib/epub/testing';
import { buildApp as buildReaderApp } from '@readlib/reader-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminBookDetail,
  createAdminClient,
  createReaderClient,
  type ReaderClient,
} from '../src/index.js';
import { closedPort, OPERATOR, type Services, startServices } from './helpers.js';
import { alipayAnswer, type StandIn, standIn } from './platform-stand-ins.js';
import { refusal } from './refusal.js';

const READER = 'reader-1';

describe('reader client against the real reader API', () => {
  let s: Services;
  let reader: ReaderClient;
  let books: AdminBookDetail[];
  beforeAll(async () => {
    s = await startServices();
    reader = createReaderClient({ baseUrl: s.readerUrl });
    // the catalogue comes in as operators add it: through the admin API, on the same database
    const admin = createAdminClient({ baseUrl: s.adminUrl });
    await admin.login(OPERATOR.username, OPERATOR.password);
    books = [];
    for (const title of ['Moby Dick', 'Mansfield Park', 'Middlemarch', 'Emma', 'Persuasion']) {
      const book = await admin.uploadBook(
        makeEpub({ title, creators: ['Sdk Author'], publisher: 'Sdk Press' }),
      );
      await admin.createBook({ fileName: book.fileName, categoryText: 'Classics' });
      books.push(book);
    }
  });
  afterAll(async () => s.close());

  it('registerUser acknowledges with nothing; getUserDay counts the first day as 1', async () => {
    expect(
      await reader.registerUser({ openId: READER, nickName: 'Reader One', city: 'Hangzhou' }),
    ).toBeUndefined();
    expect(await reader.getUserDay({ openId: READER })).toEqual({ day: 1 });
  });

  it('detail, contents and rating', async () => {
    const fileName = books[0]!.fileName;
    expect(await reader.saveRank({ fileName, openId: READER, rank: 4 })).toBeUndefined();
    const detail = await reader.getBookDetail({ fileName, openId: READER });
    expect(detail).toMatchObject({ fileName, title: 'Moby Dick', rank: 4, rankNum: 1, readerNum: 1 });
    expect(detail.readers[0]?.nickName).toBe('Reader One');
    const contents = await reader.getBookContents({ fileName });
    expect(contents.contents.length).toBeGreaterThan(0);
    expect(contents.contentsTree.length).toBeGreaterThan(0);
  });

  it('shelf: the shelf parameter is sent as URL-encoded JSON; save, get one, get all, remove', async () => {
    const fileName = books[1]!.fileName;
    expect(await reader.saveShelf({ openId: READER, fileName })).toBeUndefined();
    await reader.saveShelf({ openId: READER, fileName });
    expect((await reader.getShelf({ openId: READER })).map((e) => e.fileName)).toEqual([fileName]);
    expect(await reader.getShelf({ openId: READER, fileName })).toMatchObject([{ fileName, openId: READER }]);
    expect(await reader.removeShelf({ openId: READER, fileName })).toBeUndefined();
    expect(await reader.getShelf({ openId: READER })).toEqual([]);
    await reader.saveShelf({ openId: READER, fileName });
  });

  it('home page and its batches, hot search, categories', async () => {
    const home = await reader.getHome({ openId: READER });
    expect(home.shelfCount).toBe(1);
    expect(home.shelf.map((b) => b.fileName)).toEqual([books[1]!.fileName]);
    expect(home.category.map((c) => c.categoryText)).toContain('Classics');
    expect(await reader.getRecommendBatch()).toHaveLength(3);
    expect(await reader.getFreeReadBatch()).toHaveLength(4);
    expect(await reader.getHotBookBatch()).toHaveLength(4);
    expect(await reader.getHotSearch()).toEqual([{ title: 'Moby Dick', fileName: books[0]!.fileName }]);
    expect(await reader.listCategories()).toEqual([
      expect.objectContaining({ categoryText: 'Classics', num: 5 }),
    ]);
  });

  it('search and search-list', async () => {
    const found = await reader.searchBooks({ keyword: 'park', openId: READER, pageSize: 10 });
    expect(found.book.map((b) => b.title).sort()).toEqual(['Mansfield Park']);
    expect(found.publisher).toEqual([]);
    const byAuthor = await reader.searchList({ author: 'Sdk Author', page: 1, pageSize: 2 });
    expect(byAuthor).toHaveLength(2);
    expect(await reader.searchList({ category: 'Classics' })).toHaveLength(5);
  });

  it('OPDS routes resolve with the document text; their errors are ApiErrors like the others', async () => {
    const atom = await reader.searchOpds({ query: 'park' });
    expect(atom.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(atom).toContain('<title>Mansfield Park</title>');
    const json = JSON.parse(await reader.getOpds2AuthorBooks({ name: 'Sdk Author' }));
    expect(json.publications).toHaveLength(5);
    expect(await reader.getOpdsSearchDescription()).toContain('<OpenSearchDescription');
    const missing = await refusal(reader.getOpds2CategoryBooks({ id: 424242 }));
    expect([missing.status, missing.code, missing.kind]).toEqual([404, 1, 'not_found']);
    // what the route answers is what the client asks for
    let accept: string | null = null;
    const asking = createReaderClient({
      baseUrl: s.readerUrl,
      fetch: (url, init) => {
        accept = new Headers(init.headers).get('accept');
        return fetch(url, init);
      },
    });
    await asking.getOpdsRoot();
    expect(accept).toBe('application/atom+xml;profile=opds-catalog;kind=navigation');
  });

  it('health and ready', async () => {
    expect(await reader.health()).toEqual({ status: 'ok' });
    expect(await reader.ready()).toEqual({ status: 'ok', database: true });
  });

  it('validation 400 (error_code 2) is invalid', async () => {
    // @ts-expect-error a filter is required: the compiler refuses it, and so does the service
    const none = await refusal(reader.searchList({}));
    expect([none.status, none.code, none.kind, none.family]).toEqual([400, 2, 'invalid', 'reader']);
    expect(none.requestId).toMatch(/.+/);
    const rank = await refusal(reader.saveRank({ fileName: books[0]!.fileName, openId: READER, rank: 9 }));
    expect([rank.status, rank.code, rank.kind]).toEqual([400, 2, 'invalid']);
  });

  it('not found 404 / 1 and unregistered 404 / 4', async () => {
    const missing = await refusal(reader.getBookDetail({ fileName: 'no-such-book' }));
    expect([missing.status, missing.code, missing.kind]).toEqual([404, 1, 'not_found']);
    const stranger = await refusal(reader.saveShelf({ openId: 'stranger', fileName: books[0]!.fileName }));
    expect([stranger.status, stranger.code, stranger.kind]).toEqual([404, 4, 'unregistered']);
  });

  it('a header section over 16 KiB is 431 / 2 invalid (docs/errors.md, outside the table)', async () => {
    const big = createReaderClient({ baseUrl: s.readerUrl, headers: { 'x-padding': 'a'.repeat(20_000) } });
    const err = await refusal(big.getHotSearch());
    expect([err.status, err.code, err.kind, err.msg]).toEqual([
      431,
      2,
      'invalid',
      'request header fields too large',
    ]);
  });

  it('a lone surrogate in a query value (a search box cut mid-emoji) is invalid, status 0, not sent', async () => {
    const err = await refusal(reader.searchBooks({ keyword: 'park \uD83D' }));
    expect([err.status, err.code, err.kind, err.family]).toEqual([0, 2, 'invalid', 'reader']);
    expect(err.msg).toBe('query parameter keyword is not valid Unicode (a lone surrogate)');
    expect(err.message).toContain('(not sent, invalid)');
    // a whole emoji is fine
    expect((await reader.searchBooks({ keyword: 'park \uD83D\uDE00' })).book).toEqual([]);
  });

  it('the request id sent by the service is kept on the error', async () => {
    const err = await refusal(reader.getUserDay({ openId: 'never-registered' }));
    expect(err.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(err.message).toContain('HTTP 404');
  });
});

describe('reader client: login-code exchange, limits, upstream and network failures', () => {
  const stands: StandIn[] = [];
  afterAll(async () => {
    for (const st of stands) await st.close();
  });

  it('getWechatOpenId, getPayPlatformOpenId, getAlipayOpenId resolve with {openid, session_key}', async () => {
    const wx = await standIn(200, JSON.stringify({ openid: 'wx-open', session_key: 'wx-session' }));
    const ali = alipayAnswer({ user_id: '2088001', open_id: 'open-9', access_token: 'tok-1' });
    const gateway = await standIn(200, ali.body);
    stands.push(wx, gateway);
    const s = await startServices({
      WECHAT_API_BASE: wx.url,
      ALIPAY_GATEWAY: `${gateway.url}/gateway.do`,
      ALIPAY_APP_KEYS: ali.keysFor('2021app'),
    });
    try {
      const reader = createReaderClient({ baseUrl: s.readerUrl });
      const query = { appId: 'wxapp', code: 'js-code', secret: 'client-secret' };
      expect(await reader.getWechatOpenId(query)).toEqual({ openid: 'wx-open', session_key: 'wx-session' });
      const expected = { openid: '2088001|open-9', session_key: 'tok-1' };
      expect(await reader.getPayPlatformOpenId({ appId: '2021app', code: 'auth-code' })).toEqual(expected);
      expect(await reader.getAlipayOpenId({ appId: '2021app', code: 'auth-code' })).toEqual(expected);
    } finally {
      await s.close();
      rmSync(ali.dir, { recursive: true, force: true });
    }
  });

  it('a login platform that does not answer is 502 / 3 upstream', async () => {
    const s = await startServices({ WECHAT_API_BASE: `http://127.0.0.1:${await closedPort()}` });
    try {
      const reader = createReaderClient({ baseUrl: s.readerUrl });
      const err = await refusal(reader.getWechatOpenId({ appId: 'wxapp', code: 'c', secret: 's' }));
      expect([err.status, err.code, err.kind]).toEqual([502, 3, 'upstream']);
    } finally {
      await s.close();
    }
  });

  it('over RATE_LIMIT_PER_MINUTE is 429 / 5 rate_limited', async () => {
    const s = await startServices({ RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const reader = createReaderClient({ baseUrl: s.readerUrl });
      await reader.listCategories();
      await reader.listCategories();
      const err = await refusal(reader.listCategories());
      expect([err.status, err.code, err.kind]).toEqual([429, 5, 'rate_limited']);
      expect(err.retryAfter).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });

  it('nothing listening is status 0, kind network', async () => {
    const reader = createReaderClient({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    const err = await refusal(reader.getHotSearch());
    expect([err.status, err.code, err.kind, err.requestId]).toEqual([0, -1, 'network', undefined]);
    expect(err.cause).toBeInstanceOf(Error);
    // Node's fetch says only "fetch failed": the root cause (its cause's cause) is in msg
    expect(err.msg).toMatch(/^fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('408 / -1 (headers that never arrived, docs/errors.md) is failure', async () => {
    const timedOut = await standIn(408, '{"error_code":-1,"msg":"request timeout"}');
    stands.push(timedOut);
    const err = await refusal(createReaderClient({ baseUrl: timedOut.url }).getHotSearch());
    expect([err.status, err.code, err.kind, err.msg]).toEqual([408, -1, 'failure', 'request timeout']);
  });

  it("ready and health resolve only with a string status: a framework's own 503 body rejects", async () => {
    const closing = await standIn(
      503,
      '{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503}',
    );
    const empty = await standIn(200, '{"ok":true}');
    const unavailable = await standIn(503, '{"status":"unavailable","database":false}');
    stands.push(closing, empty, unavailable);
    const err = await refusal(createReaderClient({ baseUrl: closing.url }).ready());
    expect([err.status, err.code, err.kind]).toEqual([503, -1, 'unavailable']);
    expect(err.msg).toContain('Service Unavailable');
    const odd = await refusal(createReaderClient({ baseUrl: empty.url }).health());
    expect([odd.status, odd.code, odd.kind]).toEqual([200, -1, 'unknown']);
    expect((await refusal(createReaderClient({ baseUrl: empty.url }).ready())).kind).toBe('unknown');
    // the service's own 503 answer still resolves
    expect(await createReaderClient({ baseUrl: unavailable.url }).ready()).toEqual({
      status: 'unavailable',
      database: false,
    });
  });

  it('a success envelope without the data its route answers is kind unknown, not undefined data', async () => {
    const bare = await standIn(200, '{"error_code":0,"msg":"ok"}');
    stands.push(bare);
    const err = await refusal(createReaderClient({ baseUrl: bare.url }).getHome({ openId: 'x' }));
    expect([err.status, err.code, err.kind, err.msg]).toEqual([
      200,
      0,
      'unknown',
      'the answer says success but has no data',
    ]);
    // an acknowledgement carries no data, and resolves
    await expect(
      createReaderClient({ baseUrl: bare.url }).saveRank({ openId: 'x', fileName: 'f', rank: 3 }),
    ).resolves.toBeUndefined();
  });

  it("a proxy's own error page (not an envelope) is kind unknown with the text as msg", async () => {
    const proxy = await standIn(504, '<html>Gateway Timeout</html>', 'text/html');
    stands.push(proxy);
    const err = await refusal(createReaderClient({ baseUrl: proxy.url }).getHotSearch());
    expect([err.status, err.code, err.kind, err.msg]).toEqual([
      504,
      -1,
      'unknown',
      '<html>Gateway Timeout</html>',
    ]);
  });

  it('the database unreachable is 503 / -1 unavailable, with retryAfter from the header (docs/errors.md)', async () => {
    const h = createDb({ dialect: 'postgres', url: await refusingPostgresUrl() });
    const app = await buildReaderApp(testConfig({ PUBLIC_BASE_URL: 'http://files.test' }), {
      db: h.db,
      logger: false,
    });
    try {
      const reader = createReaderClient({ baseUrl: await app.listen({ port: 0, host: '127.0.0.1' }) });
      const err = await refusal(reader.getHotSearch());
      expect([err.status, err.code, err.kind, err.retryAfter]).toEqual([503, -1, 'unavailable', 1]);
    } finally {
      await app.close();
      await h.destroy();
    }
  });
});
