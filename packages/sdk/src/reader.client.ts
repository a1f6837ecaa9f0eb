import type { ShelfParam } from '@readlib/contracts';
import type { ReaderClient, ReaderClientOptions } from './reader-client.types.js';
import { type CallOptions, createTransport, type QueryInput } from './transport.js';

/** The `shelf` parameter: JSON of exactly {openId, fileName}, URL-encoded by the query string. */
const shelfQuery = ({ openId, fileName }: ShelfParam) => ({ shelf: JSON.stringify({ openId, fileName }) });

/** A client of the reader API; see `ReaderClient` for the methods. */
export function createReaderClient(options: ReaderClientOptions): ReaderClient {
  const send = createTransport('reader', options);
  const get = async <T>(path: string, query?: QueryInput, opts?: CallOptions): Promise<T> =>
    (await send({ method: 'GET', path, query }, opts)).data as T;
  const plain = async <T>(path: string, okStatuses: number[], opts?: CallOptions): Promise<T> =>
    (await send({ method: 'GET', path, plain: { okStatuses } }, opts)) as T;
  const ack = async (path: string, query: QueryInput, opts?: CallOptions): Promise<void> => {
    await send({ method: 'GET', path, query }, opts);
  };

  return {
    getHome: (query, opts) => get('/book/home/v2', query, opts),
    getRecommendBatch: (opts) => get('/book/home/recommend/v2', undefined, opts),
    getFreeReadBatch: (opts) => get('/book/home/freeRead/v2', undefined, opts),
    getHotBookBatch: (opts) => get('/book/home/hotBook/v2', undefined, opts),
    getHotSearch: (opts) => get('/book/hot-search', undefined, opts),
    listCategories: (opts) => get('/book/category/list/v2', undefined, opts),
    searchBooks: (query, opts) => get('/book/search', query, opts),
    searchList: (query, opts) => get('/book/search-list', query, opts),
    getBookDetail: (query, opts) => get('/book/detail', query, opts),
    getBookContents: (query, opts) => get('/book/contents', query, opts),
    saveRank: (query, opts) => ack('/book/rank/save', query, opts),
    getShelf: (query, opts) => get('/book/shelf/get', query, opts),
    saveShelf: (shelf, opts) => ack('/book/shelf/save', shelfQuery(shelf), opts),
    removeShelf: (shelf, opts) => ack('/book/shelf/remove', shelfQuery(shelf), opts),
    registerUser: async (body, opts) => {
      await send({ method: 'POST', path: '/user/register', json: body }, opts);
    },
    getUserDay: (query, opts) => get('/user/day', query, opts),
    getWechatOpenId: (query, opts) => get('/openId/get', query, opts),
    getPayPlatformOpenId: (query, opts) => get('/openId/get/payplatform', query, opts),
    getAlipayOpenId: (query, opts) => get('/openId/get/alipay', query, opts),
    health: (opts) => plain('/healthz', [200], opts),
    ready: (opts) => plain('/readyz', [200, 503], opts),
  };
}
