import { randomBytes } from 'node:crypto';
import { makeEpub, makeHostileZip } from '@readlib/epub/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, type ApiError, createAdminClient } from '../src/index.js';
import { expiredToken, OPERATOR, type Services, startServices } from './helpers.js';
import { standIn } from './platform-stand-ins.js';
import { refusal } from './refusal.js';

describe('admin client against the real admin API', () => {
  let s: Services;
  let admin: AdminClient;
  beforeAll(async () => {
    s = await startServices();
    admin = createAdminClient({ baseUrl: s.adminUrl });
  });
  afterAll(async () => s.close());

  it('login keeps the token; profile, dashboard and categories', async () => {
    const { token } = await admin.login(OPERATOR.username, OPERATOR.password);
    expect(admin.getToken()).toBe(token);
    expect(await admin.getUserInfo()).toMatchObject({
      username: OPERATOR.username,
      roles: expect.any(Array),
    });
    expect(await admin.postUserInfo()).toEqual(await admin.getUserInfo());
    expect(await admin.getDashboard()).toEqual({ book: 0, rank: 0, shelf: 0, user: 0 });
    const categories = await admin.listCategories();
    expect(categories.length).toBeGreaterThan(0);
    expect(categories[0]).toEqual({ label: expect.any(String), value: expect.any(Number), num: 0 });
  });

  it("logout: the service refuses the token from then on and the client forgets it; the operator's other tokens end too", async () => {
    const other = createAdminClient({ baseUrl: s.adminUrl });
    const { token } = await other.login(OPERATOR.username, OPERATOR.password);
    expect(await other.logout()).toBeUndefined();
    expect(other.getToken()).toBeUndefined();
    const kept = createAdminClient({ baseUrl: s.adminUrl, token });
    expect(await refusal(kept.getUserInfo())).toMatchObject({ status: 401, code: -2, kind: 'unauthorized' });
    expect(await refusal(admin.getUserInfo())).toMatchObject({ status: 401, code: -2 });
    // a logout that fails still forgets the token
    expect(await refusal(kept.logout())).toMatchObject({ status: 401, code: -2 });
    expect(kept.getToken()).toBeUndefined();
    await admin.login(OPERATOR.username, OPERATOR.password);
    expect(await admin.getUserInfo()).toMatchObject({ username: OPERATOR.username });
  });

  it('upload (Uint8Array and Blob), create, get, list, update, delete', async () => {
    const first = await admin.uploadBook(makeEpub({ title: 'Upload One', creators: ['A. Author'] }));
    expect(first).toMatchObject({ title: 'Upload One', author: 'A. Author', contents: expect.any(Array) });
    expect(first.contentsTree.length).toBeGreaterThan(0);
    const blob = new Blob([new Uint8Array(makeEpub({ title: 'Upload Two' }))]);
    const second = await admin.uploadBook(blob, 'two.epub');
    expect(second.title).toBe('Upload Two');

    expect(await admin.createBook({ fileName: first.fileName })).toBeUndefined();
    await admin.createBook({ fileName: second.fileName, categoryText: 'SDK tests' });
    expect(await admin.getBook({ fileName: first.fileName })).toMatchObject({ fileName: first.fileName });

    const page = await admin.listBooks({ sort: '+title', pageSize: 1 });
    expect(Object.keys(page).sort()).toEqual(['data', 'page', 'pageSize', 'total']);
    expect(page).toMatchObject({ page: 1, pageSize: 1, total: 2 });
    expect(page.data.map((b) => b.title)).toEqual(['Upload One']);
    expect((await admin.listBooks()).total).toBe(2);

    expect(await admin.updateBook({ fileName: first.fileName, title: 'Renamed' })).toBeUndefined();
    expect((await admin.getBook({ fileName: first.fileName })).title).toBe('Renamed');
    expect(await admin.deleteBook({ fileName: second.fileName })).toBeUndefined();
    expect((await admin.getDashboard()).book).toBe(1);
  });

  it('report screens resolve with their data', async () => {
    expect(await admin.getScreenData({ days: 7 })).toMatchObject({ totals: { book: 1 } });
    expect(await admin.getWordCloud()).toEqual(expect.any(Array));
    expect(await admin.getScreenMap({ days: 30 })).toEqual(expect.any(Array));
    expect(await admin.getScreenScatter()).toMatchObject({
      data: expect.any(Array),
      geo: expect.any(Object),
    });
  });

  it('health and ready answer outside the envelope, without a token', async () => {
    const anonymous = createAdminClient({ baseUrl: `${s.adminUrl}/` });
    expect(await anonymous.health()).toEqual({ status: 'ok' });
    expect(await anonymous.ready()).toEqual({ status: 'ok', database: true });
  });

  it('validation 400, not found 404 and conflict 409 reject with their kinds', async () => {
    // @ts-expect-error fileName is required: the compiler refuses it, and so does the service
    const invalid = await refusal(admin.getBook({}));
    expect([invalid.status, invalid.code, invalid.kind]).toEqual([400, -1, 'failure']);
    expect(invalid.requestId).toMatch(/.+/);
    // @ts-expect-error not a sortable field: the compiler refuses it, and so does the service
    const badSort = await refusal(admin.listBooks({ sort: '+nope' }));
    expect([badSort.status, badSort.code]).toEqual([400, -1]);
    const missing = await refusal(admin.getBook({ fileName: 'no-such-book' }));
    expect([missing.status, missing.code, missing.kind]).toEqual([404, -1, 'not_found']);
    const gone = await refusal(admin.deleteBook({ fileName: 'no-such-book' }));
    expect(gone.kind).toBe('not_found');

    const dup = await admin.uploadBook(makeEpub({ title: 'Upload One', creators: ['A. Author'] }));
    await admin.createBook({ fileName: dup.fileName }).catch(() => undefined);
    const conflict = await refusal(admin.createBook({ fileName: dup.fileName }));
    expect([conflict.status, conflict.code, conflict.kind]).toEqual([409, -1, 'conflict']);
  });

  it('not an EPUB is 415 and an unsafe archive 422', async () => {
    const notEpub = await refusal(admin.uploadBook(new TextEncoder().encode('plain text'), 'x.epub'));
    expect([notEpub.status, notEpub.code, notEpub.kind]).toEqual([415, -1, 'unsupported_media']);
    const unsafe = await refusal(admin.uploadBook(makeHostileZip('traversal')));
    expect([unsafe.status, unsafe.code, unsafe.kind]).toEqual([422, -1, 'unsafe_archive']);
  });

  it('a header section over 16 KiB is 431 / -1 invalid; a lone surrogate in a query is refused unsent', async () => {
    const big = createAdminClient({
      baseUrl: s.adminUrl,
      token: admin.getToken(),
      headers: { 'x-padding': 'a'.repeat(20_000) },
    });
    const err = await refusal(big.getDashboard());
    expect([err.status, err.code, err.kind, err.msg]).toEqual([
      431,
      -1,
      'invalid',
      'request header fields too large',
    ]);
    const cut = await refusal(admin.listBooks({ title: '\uDE00 x' }));
    expect([cut.status, cut.code, cut.kind, cut.family]).toEqual([0, -1, 'invalid', 'admin']);
    expect(cut.msg).toBe('query parameter title is not valid Unicode (a lone surrogate)');
  });

  it('a wrong password is login_refused (401 / -1) and calls no hook', async () => {
    let calls = 0;
    const c = createAdminClient({ baseUrl: s.adminUrl, onUnauthorized: () => void calls++ });
    const err = await refusal(c.login(OPERATOR.username, 'wrong password'));
    expect([err.status, err.code, err.kind]).toEqual([401, -1, 'login_refused']);
    expect([calls, c.getToken()]).toEqual([0, undefined]);
  });

  it('no token, an expired token: 401 / -2 unauthorized', async () => {
    const anonymous = createAdminClient({ baseUrl: s.adminUrl });
    const none = await refusal(anonymous.getDashboard());
    expect([none.status, none.code, none.kind]).toEqual([401, -2, 'unauthorized']);
    const expired = createAdminClient({ baseUrl: s.adminUrl, token: expiredToken() });
    const err = await refusal(expired.getUserInfo());
    expect([err.status, err.code, err.kind]).toEqual([401, -2, 'unauthorized']);
    expect(err.msg).toMatch(/expired/);
  });

  it('onUnauthorized may hand a fresh token: the call is retried once and the token kept', async () => {
    const seen: ApiError[] = [];
    const c = createAdminClient({
      baseUrl: s.adminUrl,
      token: expiredToken(),
      onUnauthorized: async (err) => {
        seen.push(err);
        return admin.getToken();
      },
    });
    expect((await c.getDashboard()).book).toBeGreaterThan(0);
    expect(seen.map((e) => e.kind)).toEqual(['unauthorized']);
    expect(c.getToken()).toBe(admin.getToken());
    // an upload is sent again whole on the retry
    c.setToken('tampered.token.value');
    const book = await c.uploadBook(makeEpub({ title: 'Retried Upload' }));
    expect([book.title, seen.length]).toEqual(['Retried Upload', 2]);
  });

  it('a hook that returns nothing (or throws), or a fresh token that fails too: the call rejects', async () => {
    const throwing = () => Promise.reject(new Error('no'));
    for (const onUnauthorized of [() => undefined, throwing, () => 'bad.token']) {
      let calls = 0;
      const c = createAdminClient({
        baseUrl: s.adminUrl,
        onUnauthorized: () => {
          calls++;
          return onUnauthorized() as string | undefined;
        },
      });
      const err = await refusal(c.getDashboard());
      expect([err.kind, calls]).toEqual(['unauthorized', 1]);
      // what the hook threw is kept, for the caller to see why it could not help
      expect(err.cause).toEqual(onUnauthorized === throwing ? new Error('no') : undefined);
    }
    const c = createAdminClient({ baseUrl: s.adminUrl, token: admin.getToken() });
    c.setToken();
    expect((await refusal(c.getDashboard())).kind).toBe('unauthorized');
  });
});

describe('admin client: answers of something other than the service', () => {
  it('408 / -1 is failure; a 503 body without a string status rejects ready()', async () => {
    const timedOut = await standIn(408, '{"code":-1,"msg":"request timeout"}');
    const closing = await standIn(
      503,
      '{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503}',
    );
    try {
      const err = await refusal(createAdminClient({ baseUrl: timedOut.url, token: 't' }).getDashboard());
      expect([err.status, err.code, err.kind]).toEqual([408, -1, 'failure']);
      const down = await refusal(createAdminClient({ baseUrl: closing.url }).ready());
      expect([down.status, down.code, down.kind]).toEqual([503, -1, 'unavailable']);
      expect((await refusal(createAdminClient({ baseUrl: closing.url }).health())).kind).toBe('unavailable');
    } finally {
      await timedOut.close();
      await closing.close();
    }
  });
});

describe('admin client: a success envelope short of the fields of its route', () => {
  it('a page without its total, or a detail without data, is kind unknown naming what is missing', async () => {
    const short = await standIn(200, '{"code":0,"msg":"ok","data":[],"page":1,"pageSize":20}');
    const bare = await standIn(200, '{"code":0,"msg":"ok"}');
    try {
      const page = await refusal(createAdminClient({ baseUrl: short.url, token: 't' }).listBooks());
      expect([page.status, page.code, page.kind, page.msg]).toEqual([
        200,
        0,
        'unknown',
        'the answer says success but has no total',
      ]);
      const c = createAdminClient({ baseUrl: bare.url, token: 't' });
      expect((await refusal(c.getBook({ fileName: 'f' }))).kind).toBe('unknown');
      expect((await refusal(c.uploadBook(new Uint8Array([1, 2])))).msg).toBe(
        'the answer says success but has no data',
      );
      // an acknowledgement carries no data, and resolves
      await expect(c.deleteBook({ fileName: 'f' })).resolves.toBeUndefined();
    } finally {
      await short.close();
      await bare.close();
    }
  });
});

describe('admin client: limits of the service', () => {
  it('an upload over UPLOAD_MAX_BYTES is 413 too_large', async () => {
    const s = await startServices({ UPLOAD_MAX_BYTES: '2048' });
    try {
      const c = createAdminClient({ baseUrl: s.adminUrl });
      await c.login(OPERATOR.username, OPERATOR.password);
      const big = makeEpub({ extraEntries: [{ name: 'OEBPS/noise.bin', data: randomBytes(8192) }] });
      const err = await refusal(c.uploadBook(big));
      expect([err.status, err.code, err.kind]).toEqual([413, -1, 'too_large']);
    } finally {
      await s.close();
    }
  });

  it('login attempts over LOGIN_ATTEMPTS_PER_MINUTE are 429 rate_limited', async () => {
    const s = await startServices({ LOGIN_ATTEMPTS_PER_MINUTE: '2' });
    try {
      const c = createAdminClient({ baseUrl: s.adminUrl });
      await c.login(OPERATOR.username, OPERATOR.password);
      await c.login(OPERATOR.username, OPERATOR.password);
      const err = await refusal(c.login(OPERATOR.username, OPERATOR.password));
      expect([err.status, err.code, err.kind]).toEqual([429, -1, 'rate_limited']);
    } finally {
      await s.close();
    }
  });
});
