import type { AdminClient, AdminClientOptions, BookPage, UploadFile } from './admin-client.types.js';
import { ApiError } from './api-error.js';
import { type CallOptions, createTransport, type RequestSpec } from './transport.js';

type Spec = Omit<RequestSpec, 'token'>;

function uploadForm(file: UploadFile, fileName?: string): FormData {
  const blob =
    file instanceof Uint8Array
      ? new Blob([file as Uint8Array<ArrayBuffer>], { type: 'application/epub+zip' })
      : file;
  const given = (file as { name?: unknown }).name;
  const form = new FormData();
  form.append('file', blob, fileName ?? (typeof given === 'string' && given ? given : 'book.epub'));
  return form;
}

/** A client of the administration API; see `AdminClient` for the methods. */
export function createAdminClient(options: AdminClientOptions): AdminClient {
  const send = createTransport('admin', options);
  let token = options.token;

  /**
   * A call behind the token: on 401 / -2 the hook may hand a fresh token for one retry. Each attempt
   * gets its own timer; the caller's signal covers both.
   */
  const authed = async (spec: Spec | (() => Spec), opts?: CallOptions): Promise<Record<string, unknown>> => {
    const build = typeof spec === 'function' ? spec : () => spec;
    try {
      return await send({ ...build(), token }, opts);
    } catch (err) {
      if (!(err instanceof ApiError) || err.kind !== 'unauthorized' || !options.onUnauthorized) throw err;
      let fresh: unknown;
      try {
        fresh = await options.onUnauthorized(err);
      } catch {
        throw err;
      }
      if (typeof fresh !== 'string' || fresh === '') throw err;
      token = fresh;
      return send({ ...build(), token }, opts);
    }
  };
  const call = async <T>(spec: Spec | (() => Spec), opts?: CallOptions): Promise<T> =>
    (await authed(spec, opts)).data as T;
  const get = <T>(path: string, query?: object, opts?: CallOptions) =>
    call<T>({ method: 'GET', path, query }, opts);
  const post = <T>(path: string, json?: object, opts?: CallOptions) =>
    call<T>({ method: 'POST', path, json }, opts);
  /** acknowledgements (`data: null`) resolve with nothing */
  const ack = async (spec: Spec, opts?: CallOptions): Promise<void> => {
    await authed(spec, opts);
  };
  const plain = async <T>(path: string, okStatuses: number[], opts?: CallOptions): Promise<T> =>
    (await send({ method: 'GET', path, plain: { okStatuses } }, opts)) as T;

  return {
    async login(username, password, opts) {
      const body = await send({ method: 'POST', path: '/user/login', json: { username, password } }, opts);
      const data = body.data as { token: string };
      token = data.token;
      return data;
    },
    setToken: (next) => {
      token = next;
    },
    getToken: () => token,
    getUserInfo: (opts) => get('/user/info', undefined, opts),
    postUserInfo: (opts) => post('/user/info', undefined, opts),
    getDashboard: (opts) => get('/book/home', undefined, opts),
    async listBooks(query, opts) {
      const { data, page, pageSize, total } = await authed(
        { method: 'GET', path: '/book/list', query },
        opts,
      );
      return { data, page, pageSize, total } as BookPage;
    },
    getBook: (query, opts) => get('/book/get', query, opts),
    updateBook: (body, opts) => ack({ method: 'POST', path: '/book/update', json: body }, opts),
    deleteBook: (query, opts) => ack({ method: 'GET', path: '/book/delete', query }, opts),
    // a fresh form per attempt, so a retry after onUnauthorized sends the whole file again
    uploadBook: (file, fileName, opts) =>
      call(() => ({ method: 'POST', path: '/book/upload', form: uploadForm(file, fileName) }), opts),
    createBook: (body, opts) => ack({ method: 'POST', path: '/book/create', json: body }, opts),
    listCategories: (opts) => get('/book/category', undefined, opts),
    getScreenData: (query, opts) => get('/screen/data', query, opts),
    getWordCloud: (query, opts) => get('/screen/wordcloud', query, opts),
    getScreenMap: (query, opts) => get('/screen/map', query, opts),
    getScreenScatter: (query, opts) => get('/screen/map/scatter', query, opts),
    health: (opts) => plain('/healthz', [200], opts),
    ready: (opts) => plain('/readyz', [200, 503], opts),
  };
}
