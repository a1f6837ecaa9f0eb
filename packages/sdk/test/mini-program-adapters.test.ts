import { copyFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alipayFetch } from '../src/alipay.adapter.js';
import {
  createAdminClient,
  createReaderClient,
  type MiniProgramFetch,
  type UploadProgress,
} from '../src/index.js';
import { wechatFetch } from '../src/wechat.adapter.js';
import { type AlipayStandInOptions, alipayStandIn } from './alipay-stand-in.js';
import { closedPort, OPERATOR, type Services, startServices } from './helpers.js';
import type { HeaderCase } from './platform-http.js';
import { type StandIn, standIn } from './platform-stand-ins.js';
import { refusal } from './refusal.js';
import { type WechatStandInOptions, wechatStandIn } from './wechat-stand-in.js';

const epubFixture = fileURLToPath(new URL('../../epub/fixtures/real/test-book-v2.epub', import.meta.url));

/** What each platform's case gives the shared tests: the adapter over its stand-in, and what it saw. */
interface Platform {
  fetch: MiniProgramFetch;
  requests: () => Array<{ timeout?: number; dataType?: string; headers: Record<string, string> | undefined }>;
  uploads: () => Array<{ field: string; timeout?: number; headers: Record<string, string> | undefined }>;
  aborted: () => number;
  /** listeners registered with an upload task's `onProgressUpdate` */
  progressListeners: () => number;
}

interface PlatformCase {
  name: string;
  /** `defaultTimeoutMs`: the platform's timeout for a call that sets none (shortened for the test) */
  make(options: { headerCase?: HeaderCase; defaultTimeoutMs?: number }): Platform;
}

const wechat = (options: WechatStandInOptions = {}): Platform => {
  const { wx, seen } = wechatStandIn(options);
  return {
    fetch: wechatFetch(wx),
    requests: () =>
      seen.request.map((o) => ({ timeout: o.timeout, dataType: o.dataType, headers: o.header })),
    uploads: () => seen.uploadFile.map((o) => ({ field: o.name, timeout: o.timeout, headers: o.header })),
    aborted: () => seen.aborted,
    progressListeners: () => seen.progressListeners,
  };
};

const alipay = (options: AlipayStandInOptions = {}): Platform => {
  const { my, seen } = alipayStandIn(options);
  return {
    fetch: alipayFetch(my),
    requests: () =>
      seen.request.map((o) => ({ timeout: o.timeout, dataType: o.dataType, headers: o.headers })),
    uploads: () => seen.uploadFile.map((o) => ({ field: o.name, timeout: o.timeout, headers: o.header })),
    aborted: () => seen.aborted,
    progressListeners: () => seen.progressListeners,
  };
};

const platforms: PlatformCase[] = [
  {
    name: 'wechat (wx.request, wx.uploadFile)',
    make: ({ headerCase, defaultTimeoutMs }) => wechat({ headerCase, networkTimeoutMs: defaultTimeoutMs }),
  },
  {
    name: 'alipay (my.request, my.uploadFile)',
    make: ({ headerCase, defaultTimeoutMs }) => alipay({ headerCase, defaultTimeoutMs }),
  },
  {
    name: 'alipay, a newer base library (statusCode, header)',
    make: ({ headerCase, defaultTimeoutMs }) => alipay({ headerCase, defaultTimeoutMs, newer: true }),
  },
];

let s: Services;
let files: string;
let book: string;
let notEpub: string;
let silent: StandIn;
beforeAll(async () => {
  s = await startServices();
  files = await mkdtemp(join(tmpdir(), 'readlib-sdk-local-files-'));
  // a picked file: the platforms hand a temporary local path
  book = join(files, 'tmp_4f2a9c.epub');
  await copyFile(epubFixture, book);
  notEpub = join(files, 'tmp_notes.epub');
  await writeFile(notEpub, 'plain text, not an archive');
  // accepts the connection and never answers
  silent = await standIn(200, '{}', 'application/json', 600_000);
});
afterAll(async () => {
  await silent.close();
  await s.close();
  await rm(files, { recursive: true, force: true });
});

describe.each(platforms)('the $name adapter', ({ make }) => {
  it('carries reader calls: JSON bodies, queries, answers read as text', async () => {
    const p = make({});
    const reader = createReaderClient({ baseUrl: s.readerUrl, fetch: p.fetch });
    await reader.registerUser({ openId: 'mini 读者', nickName: '读者' });
    expect(await reader.getUserDay({ openId: 'mini 读者' })).toEqual({ day: 1 });
    expect((await reader.health()).status).toBe('ok');
    // text, so a body that is not JSON reaches the SDK instead of failing the platform's parse
    expect(p.requests().map((r) => r.dataType)).toEqual(['text', 'text', 'text']);
    expect(p.requests().every((r) => r.timeout === undefined)).toBe(true);
  });

  it.each(['as-sent', 'title', 'upper'] as const)(
    'reads error envelopes and headers whatever the case of their names (%s)',
    async (headerCase) => {
      const reader = createReaderClient({ baseUrl: s.readerUrl, fetch: make({ headerCase }).fetch });
      const err = await refusal(reader.saveShelf({ openId: 'never-registered', fileName: 'no-such-book' }));
      expect([err.status, err.code, err.kind]).toEqual([404, 4, 'unregistered']);
      expect(err.requestId).toMatch(/.+/);
      const limited = createReaderClient({ baseUrl: s.readerUrl, fetch: make({ headerCase }).fetch });
      const bad = await refusal(limited.saveRank({ fileName: 'f', openId: 'o', rank: 99 }));
      expect([bad.status, bad.code, bad.kind]).toEqual([400, 2, 'invalid']);
    },
  );

  it("passes a body that is not JSON (a proxy's error page) on as text: kind unknown, its text the msg", async () => {
    const proxy = await standIn(502, '<html>502 Bad Gateway</html>', 'text/html');
    try {
      const reader = createReaderClient({ baseUrl: proxy.url, fetch: make({}).fetch });
      const err = await refusal(reader.getHotSearch());
      expect([err.status, err.code, err.kind, err.msg]).toEqual([
        502,
        -1,
        'unknown',
        '<html>502 Bad Gateway</html>',
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("reports the platform's fail without an answer as kind network, with its message", async () => {
    const p = make({});
    const reader = createReaderClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, fetch: p.fetch });
    const err = await refusal(reader.getHotSearch());
    expect([err.status, err.code, err.kind]).toEqual([0, -1, 'network']);
    expect(err.msg).toMatch(/ECONNREFUSED/);
  });

  it("passes the call's timeout on as the platform's, and a server that never answers times out", async () => {
    const p = make({});
    const reader = createReaderClient({ baseUrl: silent.url, fetch: p.fetch, timeoutMs: 300 });
    const started = Date.now();
    const err = await refusal(reader.getHotSearch());
    expect([err.status, err.kind, err.msg]).toEqual([0, 'timeout', 'no answer after 300 ms']);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(p.requests()[0]!.timeout).toBe(300);
  });

  it("reports the platform's own timeout (the call sets none) as kind timeout, with its message", async () => {
    const reader = createReaderClient({ baseUrl: silent.url, fetch: make({ defaultTimeoutMs: 200 }).fetch });
    const err = await refusal(reader.getHotSearch());
    expect([err.status, err.code, err.kind]).toEqual([0, -1, 'timeout']);
    expect(err.msg).toMatch(/timeout/);
  });

  it("aborts the platform's task when the caller's signal fires", async () => {
    const p = make({});
    const reader = createReaderClient({ baseUrl: silent.url, fetch: p.fetch });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('left the page')), 50);
    const err = await refusal(reader.getHotSearch({ signal: controller.signal }));
    expect([err.status, err.kind]).toEqual([0, 'aborted']);
    expect(p.aborted()).toBe(1);
  });

  it('uploads a local file through uploadFile (field "file"), then the book is created and read', async () => {
    const p = make({ headerCase: 'title' });
    const admin = createAdminClient({ baseUrl: s.adminUrl, fetch: p.fetch });
    await admin.login(OPERATOR.username, OPERATOR.password);
    const uploaded = await admin.uploadBook({ filePath: book }, { timeoutMs: 30_000 });
    expect(uploaded.title).toMatch(/.+/);
    await admin.createBook({ fileName: uploaded.fileName });
    const reader = createReaderClient({ baseUrl: s.readerUrl, fetch: p.fetch });
    expect((await reader.getBookDetail({ fileName: uploaded.fileName })).title).toBe(uploaded.title);
    // each platform's case uploads the same book: the next one would be a duplicate
    await admin.deleteBook({ fileName: uploaded.fileName });
    const [upload] = p.uploads();
    expect(upload!.field).toBe('file');
    expect(upload!.timeout).toBe(30_000);
    expect(upload!.headers?.authorization).toBe(`Bearer ${admin.getToken()}`);
    // the platform writes the multipart content type with its boundary
    expect(Object.keys(upload!.headers ?? {}).map((k) => k.toLowerCase())).not.toContain('content-type');
    // a call that does not listen to the progress registers nothing on the task
    expect(p.progressListeners()).toBe(0);
  });

  it("reports an upload's progress from the task's onProgressUpdate, ending at loaded = total", async () => {
    const p = make({});
    const admin = createAdminClient({ baseUrl: s.adminUrl, fetch: p.fetch });
    await admin.login(OPERATOR.username, OPERATOR.password);
    const heard: UploadProgress[] = [];
    const uploaded = await admin.uploadBook({ filePath: book }, { onProgress: (e) => heard.push(e) });
    expect(uploaded.title).toMatch(/.+/);
    expect(p.progressListeners()).toBe(1);
    // the platform counts the multipart body: the file and the part's headers around it
    const total = heard.at(-1)!.total;
    expect(total).toBeGreaterThan((await stat(book)).size);
    expect(heard.every((e) => e.total === total)).toBe(true);
    expect(heard.some((e) => e.loaded > 0 && e.loaded < total)).toBe(true);
    const loaded = heard.map((e) => e.loaded);
    expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
    expect(new Set(loaded).size).toBe(loaded.length);
    expect(heard.filter((e) => e.loaded === total)).toHaveLength(1);
    expect(heard.at(-1)).toEqual({ loaded: total, total });
  });

  it("reads an upload's error answer, and a missing local file is the platform's fail", async () => {
    const admin = createAdminClient({ baseUrl: s.adminUrl, fetch: make({}).fetch });
    await admin.login(OPERATOR.username, OPERATOR.password);
    const refused = await refusal(admin.uploadBook({ filePath: notEpub }));
    expect([refused.status, refused.code, refused.kind]).toEqual([415, -1, 'unsupported_media']);
    const missing = await refusal(admin.uploadBook({ filePath: join(files, 'gone.epub') }));
    expect([missing.status, missing.kind]).toEqual([0, 'network']);
    expect(missing.msg).toMatch(/gone\.epub/);
  });

  it('times out and aborts an upload to a server that never answers', async () => {
    const p = make({});
    const admin = createAdminClient({ baseUrl: silent.url, token: 't', fetch: p.fetch });
    const slow = await refusal(admin.uploadBook({ filePath: book }, { timeoutMs: 300 }));
    expect([slow.kind, slow.msg]).toEqual(['timeout', 'no answer after 300 ms']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const left = await refusal(admin.uploadBook({ filePath: book }, { signal: controller.signal }));
    expect(left.kind).toBe('aborted');
    expect(p.aborted()).toBeGreaterThanOrEqual(1);
  });
});

describe('platform differences', () => {
  it('wechat: a base library that parses JSON whatever dataType says still gives the SDK its answer', async () => {
    const reader = createReaderClient({
      baseUrl: s.readerUrl,
      fetch: wechat({ parsesJsonAnyway: true }).fetch,
    });
    await reader.registerUser({ openId: 'parsed-anyway' });
    expect(await reader.getUserDay({ openId: 'parsed-anyway' })).toEqual({ day: 1 });
    const err = await refusal(reader.saveRank({ fileName: 'f', openId: 'o', rank: 99 }));
    expect([err.status, err.code, err.kind]).toEqual([400, 2, 'invalid']);
  });

  it('alipay: error 19 without the answer is the platform fail it is, kind network', async () => {
    const reader = createReaderClient({
      baseUrl: s.readerUrl,
      fetch: alipay({ bareHttpErrors: true }).fetch,
    });
    const err = await refusal(reader.saveRank({ fileName: 'f', openId: 'o', rank: 99 }));
    expect([err.status, err.kind, err.msg]).toEqual([0, 'network', 'http status error (error 19)']);
  });

  it('a client over fetch refuses a local file path before sending anything', async () => {
    const seen: string[] = [];
    const admin = createAdminClient({
      baseUrl: s.adminUrl,
      token: 't',
      fetch: async (url) => {
        seen.push(url);
        throw new Error('not reached');
      },
    });
    // JavaScript callers only: the types refuse this call
    const upload = admin.uploadBook as unknown as (file: { filePath: string }) => Promise<unknown>;
    const err = await refusal(upload({ filePath: book }));
    expect([err.status, err.code, err.kind]).toEqual([0, -1, 'invalid']);
    expect(err.msg).toMatch(/mini-program adapter/);
    expect(seen).toEqual([]);
  });

  it('a mini-program client refuses bytes before sending, as the mistake it is (invalid, not network)', async () => {
    for (const platform of [wechat(), alipay()]) {
      const admin = createAdminClient({ baseUrl: s.adminUrl, token: 't', fetch: platform.fetch });
      // JavaScript callers, or a fetch option typed wider than MiniProgramFetch: the types refuse it otherwise
      const upload = admin.uploadBook as unknown as (file: Uint8Array | Blob) => Promise<unknown>;
      for (const file of [new Uint8Array([1, 2, 3]), new Blob(['PK'])]) {
        const err = await refusal(upload(file));
        expect([err.status, err.code, err.kind]).toEqual([0, -1, 'invalid']);
        expect(err.msg).toMatch(/uploadBook\(\{ filePath \}\)/);
      }
      expect([platform.requests(), platform.uploads()]).toEqual([[], []]);
    }
  });
});
