import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createAdminClient,
  createReaderClient,
  type FetchInit,
  type FetchLike,
  type FetchResponseLike,
} from '../src/index.js';
import { standIn } from './platform-stand-ins.js';
import { refusal } from './refusal.js';

/** as long as work left to the event loop may take on a loaded machine (the wait ends when it is done) */
const SETTLED = { timeout: 10_000 };

/** A loopback server that accepts every request and never answers; records the requests it got. */
async function silentServer() {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((req) => {
    requests.push(req);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback server answering a reader envelope after `delayMs`. */
const slowServer = (delayMs: number) =>
  standIn(200, '{"error_code":0,"msg":"success","data":[]}', 'application/json', delayMs);

const response = (status: number, body: string): FetchResponseLike => ({
  status,
  headers: { get: () => null },
  json: async () => JSON.parse(body),
  text: async () => body,
});

/** A fetch adapter that ignores `init.signal` and never settles (some mini-program adapters). */
const neverFetch = (seen: FetchInit[] = []): FetchLike => {
  return (_url, init) => {
    seen.push(init);
    return new Promise(() => {});
  };
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  for (const close of closers.splice(0)) await close();
});

describe('timeouts: a server that accepts and never answers', () => {
  it('the client timeoutMs rejects with kind timeout, status 0, and cancels the request', async () => {
    const srv = await silentServer();
    closers.push(srv.close);
    // long enough for the request to reach the server on a loaded machine (it asserts the request came)
    const reader = createReaderClient({ baseUrl: srv.url, timeoutMs: 500 });
    const err = await refusal(reader.getHotSearch());
    expect([err.status, err.code, err.kind, err.family]).toEqual([0, -1, 'timeout', 'reader']);
    expect(err.msg).toBe('no answer after 500 ms');
    expect(err.message).toBe('no answer after 500 ms (no response, timeout)');
    expect(srv.requests).toHaveLength(1);
    // the signal reached the global fetch: it dropped the connection
    await vi.waitFor(() => expect(srv.requests[0]!.socket.destroyed).toBe(true), SETTLED);
  });

  it('admin client: the same, for calls behind the token and the health endpoints', async () => {
    const srv = await silentServer();
    closers.push(srv.close);
    const admin = createAdminClient({ baseUrl: srv.url, token: 't', timeoutMs: 80 });
    const err = await refusal(admin.getDashboard());
    expect([err.status, err.code, err.kind, err.family]).toEqual([0, -1, 'timeout', 'admin']);
    expect((await refusal(admin.ready())).kind).toBe('timeout');
    expect((await refusal(admin.login('u', 'p'))).kind).toBe('timeout');
  });

  it('a per-call timeoutMs overrides the client one, both ways', async () => {
    const srv = await silentServer();
    closers.push(srv.close);
    const patient = createReaderClient({ baseUrl: srv.url, timeoutMs: 60_000 });
    const err = await refusal(patient.searchBooks({ keyword: 'x' }, { timeoutMs: 50 }));
    expect([err.kind, err.msg]).toEqual(['timeout', 'no answer after 50 ms']);
    // no client timeout at all: the call's own still applies
    const plain = createReaderClient({ baseUrl: srv.url });
    expect((await refusal(plain.health({ timeoutMs: 50 }))).kind).toBe('timeout');

    const slow = await slowServer(150);
    closers.push(slow.close);
    const hasty = createReaderClient({ baseUrl: slow.url, timeoutMs: 50 });
    expect((await refusal(hasty.getHotSearch())).kind).toBe('timeout');
    expect(await hasty.getHotSearch({ timeoutMs: 5_000 })).toEqual([]);
  });

  it('an AbortController aborting during the call rejects with kind aborted, its reason as cause', async () => {
    const srv = await silentServer();
    closers.push(srv.close);
    const reader = createReaderClient({ baseUrl: srv.url, timeoutMs: 60_000 });
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const pending = reader.getHotSearch({ signal: controller.signal });
    await vi.waitFor(() => expect(srv.requests).toHaveLength(1), SETTLED);
    controller.abort(reason);
    const err = await refusal(pending);
    expect([err.status, err.code, err.kind]).toEqual([0, -1, 'aborted']);
    expect(err.cause).toBe(reason);
    await vi.waitFor(() => expect(srv.requests[0]!.socket.destroyed).toBe(true), SETTLED);
  });

  it('a signal aborted before the call rejects at once and sends nothing', async () => {
    const srv = await silentServer();
    closers.push(srv.close);
    const fetch = vi.fn(neverFetch());
    const controller = new AbortController();
    controller.abort('gone');
    const reader = createReaderClient({ baseUrl: srv.url, fetch });
    const err = await refusal(reader.getHome({ openId: 'o' }, { signal: controller.signal }));
    expect([err.status, err.code, err.kind, err.cause]).toEqual([0, -1, 'aborted', 'gone']);
    const admin = createAdminClient({ baseUrl: srv.url, fetch });
    expect(
      (await refusal(admin.uploadBook(new Uint8Array(4), 'a.epub', { signal: controller.signal }))).kind,
    ).toBe('aborted');
    expect(fetch).not.toHaveBeenCalled();
    // and the global fetch sends nothing either
    const real = createReaderClient({ baseUrl: srv.url });
    expect((await refusal(real.getHotSearch({ signal: controller.signal }))).kind).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(srv.requests).toHaveLength(0);
  });
});

describe('timeouts: a fetch adapter that ignores the signal', () => {
  it('a fetch that never settles still rejects on time (the race), with the signal passed and aborted', async () => {
    const seen: FetchInit[] = [];
    const reader = createReaderClient({
      baseUrl: 'http://adapter.test',
      fetch: neverFetch(seen),
      timeoutMs: 50,
    });
    const err = await refusal(reader.getHotSearch());
    expect([err.status, err.code, err.kind]).toEqual([0, -1, 'timeout']);
    expect(seen[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(seen[0]!.signal!.aborted).toBe(true);

    const controller = new AbortController();
    const pending = reader.getHotSearch({ signal: controller.signal, timeoutMs: 60_000 });
    controller.abort();
    const aborted = await refusal(pending);
    expect(aborted.kind).toBe('aborted');
    expect((aborted.cause as Error).name).toBe('AbortError');
  });

  it('a body that never arrives is timed out too', async () => {
    const stalled: FetchLike = async () => ({
      ...response(200, ''),
      text: () => new Promise<string>(() => {}),
    });
    const admin = createAdminClient({ baseUrl: 'http://adapter.test', fetch: stalled, timeoutMs: 50 });
    expect((await refusal(admin.getDashboard())).kind).toBe('timeout');
  });

  it('an adapter failing after the timeout leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const late: FetchLike = () =>
        new Promise((_, reject) => setTimeout(() => reject(new Error('late failure')), 100));
      const lateBody: FetchLike = async () => ({
        ...response(200, ''),
        text: () => new Promise<string>((_, reject) => setTimeout(() => reject(new Error('late body')), 100)),
      });
      for (const fetch of [late, lateBody]) {
        const reader = createReaderClient({ baseUrl: 'http://adapter.test', fetch, timeoutMs: 30 });
        expect((await refusal(reader.getHotSearch())).kind).toBe('timeout');
        const controller = new AbortController();
        const pending = reader.getHotSearch({ signal: controller.signal });
        controller.abort();
        expect((await refusal(pending)).kind).toBe('aborted');
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a runtime without AbortController still times out (no signal passed)', async () => {
    vi.stubGlobal('AbortController', undefined);
    const seen: FetchInit[] = [];
    const reader = createReaderClient({
      baseUrl: 'http://adapter.test',
      fetch: neverFetch(seen),
      timeoutMs: 30,
    });
    expect((await refusal(reader.getHotSearch())).kind).toBe('timeout');
    expect('signal' in seen[0]!).toBe(false);
  });
});

describe('timeouts: timers, listeners and controllers', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });

  it('the timer is armed only per call and cleared when the call settles (success, failure, abort)', async () => {
    let answer: FetchLike = () => new Promise(() => {});
    const reader = createReaderClient({
      baseUrl: 'http://adapter.test',
      fetch: (url, init) => answer(url, init),
      timeoutMs: 1_000,
    });
    const hanging = refusal(reader.getHotSearch());
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await hanging).kind).toBe('timeout');
    expect(vi.getTimerCount()).toBe(0);

    answer = async () => response(200, '{"error_code":0,"msg":"success","data":[]}');
    expect(await reader.getHotSearch()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    answer = async () => response(404, '{"error_code":1,"msg":"no"}');
    expect((await refusal(reader.getHotSearch())).kind).toBe('not_found');
    answer = async () => Promise.reject(new TypeError('fetch failed'));
    expect((await refusal(reader.getHotSearch({ timeoutMs: 5_000 }))).kind).toBe('network');
    expect(vi.getTimerCount()).toBe(0);

    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    answer = () => new Promise(() => {});
    const pending = refusal(reader.getHotSearch({ signal: controller.signal }));
    controller.abort();
    expect((await pending).kind).toBe('aborted');
    answer = async () => response(200, '{"error_code":0,"msg":"success","data":[]}');
    await reader.getHotSearch({ signal: controller.signal }).catch(() => undefined);
    const other = new AbortController();
    const addOther = vi.spyOn(other.signal, 'addEventListener');
    const removeOther = vi.spyOn(other.signal, 'removeEventListener');
    await reader.getHotSearch({ signal: other.signal });
    expect(vi.getTimerCount()).toBe(0);
    expect([add.mock.calls.length, remove.mock.calls.length]).toEqual([1, 1]);
    expect([addOther.mock.calls.length, removeOther.mock.calls.length]).toEqual([1, 1]);
    expect(removeOther.mock.calls[0]![1]).toBe(addOther.mock.calls[0]![1]);
  });

  it('no AbortController and no timer unless a signal or a timeout is given', async () => {
    let created = 0;
    const Original = AbortController;
    vi.stubGlobal(
      'AbortController',
      class extends Original {
        constructor() {
          super();
          created++;
        }
      },
    );
    const seen: FetchInit[] = [];
    const fetch: FetchLike = async (_url, init) => {
      seen.push(init);
      return response(200, '{"status":"ok"}');
    };
    const reader = createReaderClient({ baseUrl: 'http://adapter.test', fetch });
    expect(await reader.health()).toEqual({ status: 'ok' });
    expect([created, vi.getTimerCount(), 'signal' in seen[0]!]).toEqual([0, 0, false]);
    expect(await reader.health({ timeoutMs: 100 })).toEqual({ status: 'ok' });
    expect([created, vi.getTimerCount(), seen[1]!.signal instanceof AbortSignal]).toEqual([1, 0, true]);
  });

  it('admin: a retry after onUnauthorized gets its own timer', async () => {
    const after = (ms: number, status: number, body: string): Promise<FetchResponseLike> =>
      new Promise((resolve) => setTimeout(() => resolve(response(status, body)), ms));
    const tokens: Array<string | undefined> = [];
    let retry: () => Promise<FetchResponseLike> = () =>
      after(80, 200, '{"code":0,"msg":"ok","data":{"book":1}}');
    const admin = createAdminClient({
      baseUrl: 'http://adapter.test',
      token: 'old',
      timeoutMs: 100,
      fetch: (_url, init) => {
        tokens.push(init.headers.authorization);
        return tokens.length % 2 === 1 ? after(80, 401, '{"code":-2,"msg":"token expired"}') : retry();
      },
      onUnauthorized: () => 'fresh',
    });
    // 80 ms + 80 ms: over 100 ms in all, under it per attempt
    const ok = admin.getDashboard();
    await vi.advanceTimersByTimeAsync(80);
    await vi.advanceTimersByTimeAsync(80);
    expect(await ok).toEqual({ book: 1 });
    expect(tokens).toEqual(['Bearer old', 'Bearer fresh']);
    expect(vi.getTimerCount()).toBe(0);

    admin.setToken('old');
    retry = () => new Promise(() => {});
    const hung = refusal(admin.getDashboard());
    await vi.advanceTimersByTimeAsync(80);
    await vi.advanceTimersByTimeAsync(100);
    expect((await hung).kind).toBe('timeout');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('baseUrl validation', () => {
  it('a baseUrl that is neither an absolute http(s) URL nor a path throws a TypeError at creation', () => {
    for (const baseUrl of [
      'localhost:3310',
      '127.0.0.1:3310',
      '//api.example.com',
      'api',
      '/api?x=1',
      'ftp://api.example.com',
      'http://',
      'https://api.example.com/?x=1',
      'https://api.example.com#top',
      ' https://api.example.com',
      undefined as unknown as string,
    ]) {
      expect(() => createReaderClient({ baseUrl }), String(baseUrl)).toThrow(TypeError);
      expect(() => createAdminClient({ baseUrl }), String(baseUrl)).toThrow(/baseUrl must be an absolute/);
    }
    for (const baseUrl of [
      'http://localhost:3310',
      'HTTPS://api.example.com/',
      'http://127.0.0.1:3000/prefix/',
      'http://[::1]:3000',
      // a page served by the API's own origin (the console at /console/ on the admin service)
      '',
      '/',
      '/api/',
    ]) {
      expect(() => createReaderClient({ baseUrl }), baseUrl).not.toThrow();
      expect(() => createAdminClient({ baseUrl }), baseUrl).not.toThrow();
    }
  });

  it('a valid one reaches the fetch (and the adapters) as the absolute URL, without its trailing slash', async () => {
    const urls: string[] = [];
    const fetch: FetchLike = async (url) => {
      urls.push(url);
      return {
        status: 200,
        headers: { get: () => null },
        json: async () => ({}),
        text: async () => '{"status":"ok"}',
      };
    };
    await createReaderClient({ baseUrl: 'https://reader.example.com/api//', fetch }).health();
    expect(urls).toEqual(['https://reader.example.com/api/healthz']);
  });
});

describe('timeoutMs validation', () => {
  it('a client timeoutMs that is not a positive finite number throws a RangeError at creation', () => {
    for (const timeoutMs of [
      0,
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2 ** 31,
      '100' as unknown as number,
    ]) {
      expect(() => createReaderClient({ baseUrl: 'http://x.test', timeoutMs })).toThrow(RangeError);
      expect(() => createAdminClient({ baseUrl: 'http://x.test', timeoutMs })).toThrow(RangeError);
    }
    expect(() => createReaderClient({ baseUrl: 'http://x.test', timeoutMs: 1 })).not.toThrow();
    expect(() => createAdminClient({ baseUrl: 'http://x.test', timeoutMs: undefined })).not.toThrow();
  });

  it('a per-call timeoutMs that is not one rejects with a RangeError and sends nothing', async () => {
    const fetch = vi.fn(neverFetch());
    const reader = createReaderClient({ baseUrl: 'http://x.test', fetch });
    await expect(reader.getHotSearch({ timeoutMs: -5 })).rejects.toThrow(RangeError);
    const admin = createAdminClient({ baseUrl: 'http://x.test', fetch });
    await expect(admin.health({ timeoutMs: Number.NaN })).rejects.toThrow(RangeError);
    expect(fetch).not.toHaveBeenCalled();
  });
});
