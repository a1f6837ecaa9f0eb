import type { AdminClient, AdminClientOptions, BookPage, UploadFile } from './admin-client.types.js';
import { ApiError } from './api-error.js';
import { createTransport, type RequestSpec } from './transport.js';

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

  /** A call behind the token: on 401 / -2 the hook may hand a fresh token for one retry. */
  const authed = async (spec: Spec | (() => Spec)): Promise<Record<string, unknown>> => {
    const build = typeof spec === 'function' ? spec : () => spec;
    try {
      return await send({ ...build(), token });
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
      return send({ ...build(), token });
    }
  };
  const call = async <T>(spec: Spec | (() => Spec)): Promise<T> => (await authed(spec)).data as T;
  const get = <T>(path: string, query?: object) => call<T>({ method: 'GET', path, query });
  const post = <T>(path: string, json?: object) => call<T>({ method: 'POST', path, json });
  /** acknowledgements (`data: null`) resolve with nothing */
  const ack = async (spec: Spec): Promise<void> => {
    await authed(spec);
  };
  const plain = async <T>(path: string, okStatuses: number[]): Promise<T> =>
    (await send({ method: 'GET', path, plain: { okStatuses } })) as T;

  return {
    async login(username, password) {
      const body = await send({ method: 'POST', path: '/user/login', json: { username, password } });
      const data = body.data as { token: string };
      token = data.token;
      return data;
    },
    setToken: (next) => {
      token = next;
    },
    getToken: () => token,
    getUserInfo: () => get('/user/info'),
    postUserInfo: () => post('/user/info'),
    getDashboard: () => get('/book/home'),
    async listBooks(query) {
      const { data, page, pageSize, total } = await authed({ method: 'GET', path: '/book/list', query });
      return { data, page, pageSize, total } as BookPage;
    },
    getBook: (query) => get('/book/get', query),
    updateBook: (body) => ack({ method: 'POST', path: '/book/update', json: body }),
    deleteBook: (query) => ack({ method: 'GET', path: '/book/delete', query }),
    // a fresh form per attempt, so a retry after onUnauthorized sends the whole file again
    uploadBook: (file, fileName) =>
      call(() => ({ method: 'POST', path: '/book/upload', form: uploadForm(file, fileName) })),
    createBook: (body) => ack({ method: 'POST', path: '/book/create', json: body }),
    listCategories: () => get('/book/category'),
    getScreenData: (query) => get('/screen/data', query),
    getWordCloud: (query) => get('/screen/wordcloud', query),
    getScreenMap: (query) => get('/screen/map', query),
    getScreenScatter: (query) => get('/screen/map/scatter', query),
    health: () => plain('/healthz', [200]),
    ready: () => plain('/readyz', [200, 503]),
  };
}
