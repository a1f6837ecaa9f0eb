import { makeEpub } from '@readlib/epub/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminClient, type FetchLike, type UploadProgress } from '../src/index.js';
import { progressReporter } from '../src/upload-progress.js';
import { expiredToken, OPERATOR, type Services, startServices } from './helpers.js';
import { refusal } from './refusal.js';

describe('upload progress over fetch (Node: no XMLHttpRequest)', () => {
  let s: Services;
  let token: string;
  beforeAll(async () => {
    s = await startServices();
    token = (await createAdminClient({ baseUrl: s.adminUrl }).login(OPERATOR.username, OPERATOR.password))
      .token;
  });
  afterAll(async () => s.close());

  it('reports only the end, with the file size as both numbers, once the service accepted it', async () => {
    expect(typeof XMLHttpRequest).toBe('undefined');
    const epub = makeEpub({ title: 'Progress In Node' });
    const heard: UploadProgress[] = [];
    const admin = createAdminClient({ baseUrl: s.adminUrl, token });
    const uploaded = await admin.uploadBook(epub, 'node.epub', { onProgress: (e) => heard.push(e) });
    expect(uploaded.title).toBe('Progress In Node');
    expect(heard).toEqual([{ loaded: epub.length, total: epub.length }]);
    // a Blob: its size
    const blob = new Blob([new Uint8Array(epub)]);
    const fromBlob: UploadProgress[] = [];
    await admin.uploadBook(blob, undefined, { onProgress: (e) => fromBlob.push(e) });
    expect(fromBlob).toEqual([{ loaded: blob.size, total: blob.size }]);
  });

  it('reports nothing when the service refuses the upload', async () => {
    const heard: UploadProgress[] = [];
    const admin = createAdminClient({ baseUrl: s.adminUrl, token });
    const err = await refusal(
      admin.uploadBook(new TextEncoder().encode('not an archive'), 'notes.epub', {
        onProgress: (e) => heard.push(e),
      }),
    );
    expect(err.kind).toBe('unsupported_media');
    expect(heard).toEqual([]);
  });

  it("passes a fetch's own reports on (init.onUploadProgress), then the end; a retry starts again", async () => {
    const epub = makeEpub({ title: 'Progress Through A Fetch' });
    const half = Math.floor(epub.length / 2);
    // a fetch of one's own that can watch the body: it reports half the bytes, then sends
    const watching: FetchLike = async (url, init) => {
      init.onUploadProgress?.({ loaded: half, total: epub.length });
      return fetch(url, init);
    };
    const heard: UploadProgress[] = [];
    const admin = createAdminClient({
      baseUrl: s.adminUrl,
      token: expiredToken(),
      fetch: watching,
      onUnauthorized: () => token,
    });
    await admin.uploadBook(epub, undefined, { onProgress: (e) => heard.push(e) });
    expect(heard).toEqual([
      { loaded: half, total: epub.length },
      // the retry with the fresh token sends the whole file again
      { loaded: half, total: epub.length },
      { loaded: epub.length, total: epub.length },
    ]);
  });

  it('gives a fetch no onUploadProgress when the caller does not listen', async () => {
    const inits: object[] = [];
    const admin = createAdminClient({
      baseUrl: s.adminUrl,
      token,
      fetch: async (url, init) => {
        inits.push(init);
        return fetch(url, init);
      },
    });
    await admin.uploadBook(makeEpub({ title: 'Unwatched' }));
    expect(inits).toHaveLength(1);
    expect(inits[0]).not.toHaveProperty('onUploadProgress');
  });
});

describe('progressReporter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps counts that grow, at most the total; takes the size for an unknown total', () => {
    const heard: UploadProgress[] = [];
    const r = progressReporter((e) => heard.push(e), 100);
    r.report({ loaded: 10, total: 0 });
    r.report({ loaded: 10, total: 100 });
    r.report({ loaded: 5, total: 100 });
    r.report({ loaded: Number.NaN, total: 100 });
    r.report({ loaded: -1, total: 100 });
    r.report({ loaded: 150, total: 100 });
    r.finish();
    expect(heard).toEqual([
      { loaded: 10, total: 100 },
      { loaded: 100, total: 100 },
    ]);
  });

  it('ends at the last total the events gave, or says nothing when no total is known', () => {
    const heard: UploadProgress[] = [];
    const r = progressReporter((e) => heard.push(e), 100);
    r.report({ loaded: 40, total: 120 });
    r.finish();
    expect(heard).toEqual([
      { loaded: 40, total: 120 },
      { loaded: 120, total: 120 },
    ]);
    const none: UploadProgress[] = [];
    progressReporter((e) => none.push(e), undefined).finish();
    expect(none).toEqual([]);
  });

  it("does not let a listener's exception stop the upload: it is thrown apart, later", () => {
    vi.useFakeTimers();
    const r = progressReporter(() => {
      throw new Error('a bug in the progress bar');
    }, 10);
    expect(() => r.finish()).not.toThrow();
    expect(() => vi.runAllTimers()).toThrow('a bug in the progress bar');
  });
});
